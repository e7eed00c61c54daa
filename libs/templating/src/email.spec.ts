import { TemplateEngine } from './template-engine';
import { aContext, fakeResources } from './testing/fixtures';
import type { EmailLayout } from './types';

const engine = new TemplateEngine();

const layouts: Record<string, EmailLayout> = {
  default: {
    html_layout:
      '<html><body><h1>{{ vars.app_name }}</h1>{{ content }}<footer>{% for l in footer_links %}<a href="{{ l.url }}">{{ l.text }}</a>{% endfor %}{{ formatted_price }}</footer></body></html>',
    text_layout: '{{ vars.app_name }}\n\n{{ content }}\n--\n{{ formatted_price }}',
    footer_links: [{ text: 'Settings', url: 'https://notify.example/settings?a=1&b=2' }],
  },
  preview: {
    html_layout: '<html><body><div class="preview">{{ previewText }}</div>{{ content }}</body></html>',
    text_layout: '{{ content }}',
  },
  broken: { html_layout: '{{ content | nope }}', text_layout: '{{ content }}' },
};

describe('TemplateEngine.renderEmail', () => {
  const hostile = aContext({ data: { note: '<script>x</script>', price: 12.5 } });

  it('wraps the html and text bodies in the layout at {{ content }}', async () => {
    const result = await engine.renderEmail(
      {
        layoutKey: 'default',
        subject: 'Hi {{ recipient.name }}',
        html: '<p>{{ data.note }}</p>{% capture formatted_price %}{{ data.price | currency: "USD" }}{% endcapture %}',
        text: 'Note: {{ data.note }}{% assign formatted_price = "12.50 USD" %}',
      },
      hostile,
      fakeResources({ layouts }),
    );
    expect(result).toEqual({
      ok: true,
      subject: 'Hi Jane Doe',
      html: '<html><body><h1>Notify</h1><p>&lt;script&gt;x&lt;/script&gt;</p><footer><a href="https://notify.example/settings?a=1&amp;b=2">Settings</a>$12.50</footer></body></html>',
      text: 'Notify\n\nNote: <script>x</script>\n--\n12.50 USD',
    });
  });

  it('renders precontent first: its assigns are visible above {{ content }} in the layout', async () => {
    const result = await engine.renderEmail(
      {
        layoutKey: 'preview',
        subject: 's',
        html: '<p>body {{ previewText }}</p>',
        text: 'text',
        precontent: '{% assign previewText = "Welcome aboard" %}ignored output',
      },
      aContext(),
      fakeResources({ layouts }),
    );
    expect(result).toMatchObject({
      ok: true,
      html: '<html><body><div class="preview">Welcome aboard</div><p>body Welcome aboard</p></body></html>',
      text: 'text',
    });
  });

  it('works without a layout', async () => {
    const result = await engine.renderEmail(
      { subject: 'S', html: '<b>{{ actor.name }}</b>', text: '{{ actor.name }}' },
      aContext(),
      fakeResources(),
    );
    expect(result).toEqual({ ok: true, subject: 'S', html: '<b>Ian Malcolm</b>', text: 'Ian Malcolm' });
  });

  it('derives the text body from the html body when there is none', async () => {
    const html =
      '<h1>Title</h1><p>Hello {{ recipient.name }} &amp; co.<br>Second line</p><style>p{}</style><ul><li>one</li><li>two</li></ul>';
    const result = await engine.renderEmail({ layoutKey: 'preview', subject: 'S', html, text: '' }, aContext(), fakeResources({ layouts }));
    expect(result).toMatchObject({ ok: true, text: 'Title\nHello Jane Doe & co.\nSecond line\none\ntwo' });
  });

  it('puts the subject on one line and does not escape it', async () => {
    const result = await engine.renderEmail({ subject: 'Hi\r\n {{ data.note }}\nBcc: x', html: '' }, hostile, fakeResources());
    expect(result).toMatchObject({ ok: true, subject: 'Hi <script>x</script> Bcc: x' });
  });

  it('fails a missing layout', async () => {
    const result = await engine.renderEmail({ layoutKey: 'nope', subject: 's', html: 'h' }, aContext(), fakeResources({ layouts }));
    expect(result).toEqual({
      ok: false,
      error: { code: 'template_missing_layout', message: 'email layout "nope" not found', field: 'layout' },
    });
  });

  it('fails without a layout lookup as a missing layout', async () => {
    const { layout: _layout, ...withoutLayouts } = fakeResources();
    const result = await engine.renderEmail({ layoutKey: 'default', subject: 's', html: 'h' }, aContext(), withoutLayouts);
    expect(result).toMatchObject({ ok: false, error: { code: 'template_missing_layout' } });
  });

  it.each([
    [{ subject: '{{ x | nope }}', html: '' }, 'subject', 'template_syntax'],
    [{ subject: 's', html: '{% if %}' }, 'html_body', 'template_syntax'],
    [{ subject: 's', html: 'ok', text: '{{ 1 | currency: "bad!" }}' }, 'text_body', 'template_render'],
    [{ subject: 's', html: 'ok', precontent: '{% for %}' }, 'precontent', 'template_syntax'],
    [{ subject: 's', html: 'ok', layoutKey: 'broken' }, 'html_layout', 'template_syntax'],
  ])('names the part that failed (%#)', async (input, field, code) => {
    const result = await engine.renderEmail(input, aContext(), fakeResources({ layouts }));
    expect(result).toMatchObject({ ok: false, error: { field, code } });
  });

  it('shares one loop budget across the parts of an email', async () => {
    const small = new TemplateEngine({ maxLoopIterations: 10 });
    const loop = '{% for i in (1..6) %}.{% endfor %}';
    expect((await small.render(loop, aContext())).ok).toBe(true);
    const result = await small.renderEmail({ subject: 's', html: loop, text: loop }, aContext(), fakeResources());
    expect(result).toMatchObject({ ok: false, error: { code: 'template_limit', field: 'text_body' } });
  });
});

describe('TemplateEngine.validateLayout', () => {
  it('accepts a layout with {{ content }} in both parts', () => {
    expect(engine.validateLayout({ html_layout: '<body>{{ content }}</body>', text_layout: '{{- content -}}' })).toEqual([]);
  });

  it('requires {{ content }} and valid Liquid, naming the field', () => {
    expect(engine.validateLayout({ html_layout: '<body></body>', text_layout: '{% if %}{{ content }}' })).toEqual([
      { code: 'template_syntax', message: 'a layout must output {{ content }}', field: 'html_layout' },
      expect.objectContaining({ code: 'template_syntax', field: 'text_layout', line: 1 }),
    ]);
  });
});
