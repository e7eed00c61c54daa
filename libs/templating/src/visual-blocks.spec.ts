import { TemplateEngine } from './template-engine';
import { aContext, fakeResources } from './testing/fixtures';
import { visualBlocksToLiquid } from './visual-blocks';

const engine = new TemplateEngine();

async function render(blocks: Parameters<typeof visualBlocksToLiquid>[0], data: Record<string, unknown> = {}) {
  const result = await engine.renderEmail(
    { layoutKey: null, subject: 'S', html: visualBlocksToLiquid(blocks), text: null },
    aContext({ data }),
    fakeResources({ partials: { footer: '<footer>{{ company }} {{ year }}</footer>' } }),
  );
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

describe('email visual blocks', () => {
  it('renders markdown after its Liquid, html as it is, a divider, an image and buttons, in order', async () => {
    const { html, text } = await render(
      [
        { type: 'markdown', content: '# Hello {{ recipient.name }}\n\nYour **{{ data.project }}** is ready.' },
        { type: 'html', content: '<p class="x">{{ data.count }} items</p>' },
        { type: 'divider' },
        {
          type: 'image',
          url: 'https://cdn.example/logo.png',
          alt: 'Logo',
          action: 'https://example.com',
          layout_attrs: { horizontal_align: 'center' },
        },
        {
          type: 'button_set',
          buttons: [
            {
              label: 'Open',
              action: 'https://app.example/p/{{ data.project }}',
              variant: 'solid',
              style_attrs: { background_color: '#2563eb' },
            },
            { label: 'Later', action: 'https://app.example/snooze', variant: 'outline' },
          ],
        },
      ],
      { project: 'Park', count: 3 },
    );
    expect(html).toMatch(/<h1>Hello Jane Doe<\/h1>/);
    expect(html).toMatch(/Your <strong>Park<\/strong> is ready\./);
    expect(html).toContain('<p class="x">3 items</p>');
    expect(html).toContain('<hr');
    expect(html).toMatch(/<a href="https:\/\/example.com"><img src="https:\/\/cdn.example\/logo.png" alt="Logo"/);
    expect(html).toContain('href="https://app.example/p/Park"');
    expect(html).toContain('background:#2563eb');
    expect(html.indexOf('Hello')).toBeLessThan(html.indexOf('3 items'));
    expect(html.indexOf('3 items')).toBeLessThan(html.indexOf('logo.png'));
    expect(text).toContain('Hello Jane Doe');
  });

  it('renders a partial block with its attributes', async () => {
    const { html } = await render([{ type: 'partial', key: 'footer', attrs: { company: 'Acme', year: 2026 } }]);
    expect(html).toContain('<footer>Acme 2026</footer>');
  });

  it('keeps literal values literal: Liquid and markup in a label, an alt text or a colour are not evaluated', async () => {
    const { html } = await render([
      { type: 'image', url: 'https://cdn.example/a.png', alt: '{{ recipient.email }}"><script>' },
      {
        type: 'button_set',
        buttons: [{ label: '<b>{{ recipient.email }}</b>', action: 'https://x.example', style_attrs: { text_color: 'red;x:1' } }],
      },
    ]);
    expect(html).not.toContain('jane@example.com');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('x:1');
  });

  it('escapes what the data brings into markdown', async () => {
    const { html } = await render([{ type: 'markdown', content: 'Note: {{ data.note }}' }], { note: '<script>alert(1)</script>' });
    expect(html).not.toContain('<script>');
  });
});
