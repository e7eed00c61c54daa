import { TemplateEngine } from './template-engine';
import { aContext, fakeResources, renderError, renderOk } from './testing/fixtures';

const engine = new TemplateEngine();

describe('partials', () => {
  const resources = () =>
    fakeResources({
      partials: {
        greeting: 'Hello {{ name }}!',
        card: '<div>{{ title }}{% render "greeting", name: who %}</div>',
        scoped: '[{{ recipient.name }}][{{ vars.app_name }}][{{ name }}]',
        items: '{% for i in items %}{{ i.label }};{% endfor %}',
        assigns: '{% assign leaked = "yes" %}{{ leaked }}',
        self: 'again {% render "self" %}',
        ping: 'ping {% render "pong" %}',
        pong: 'pong {% render "ping" %}',
        broken: 'line one\n{{ x | nope }}',
        uses_missing: 'a\n{% render "nowhere" %}',
        raw_html: '{{ value }}',
        level1: '1{% render "level2" %}',
        level2: '2{% render "level3" %}',
        level3: '3{% render "level4" %}',
        level4: '4{% render "level5" %}',
        level5: '5',
        level0: '0{% render "level1" %}',
      },
    });

  it('renders a partial by key with the parameters it is given', async () => {
    expect(await renderOk(engine, '{% render "greeting", name: actor.name %}', aContext(), { resources: resources() })).toBe(
      'Hello Ian Malcolm!',
    );
    expect(await renderOk(engine, "{% render 'greeting' name: 'Bob' %}", aContext(), { resources: resources() })).toBe('Hello Bob!');
  });

  it('passes structured values as they are', async () => {
    const context = aContext({ data: { items: [{ label: 'a' }, { label: 'b' }] } });
    expect(await renderOk(engine, '{% render "items", items: data.items %}', context, { resources: resources() })).toBe('a;b;');
  });

  it('isolates the partial: it sees its parameters only (as in Knock), and its assigns stay inside', async () => {
    const out = await renderOk(engine, '{% render "scoped", name: recipient.name %}|{% render "assigns" %}|{{ leaked }}', aContext(), {
      resources: resources(),
    });
    expect(out).toBe('[][][Jane Doe]|yes|');
  });

  it('renders partials inside partials, and inside loops', async () => {
    const context = aContext({ data: { people: ['A', 'B'] } });
    const out = await renderOk(engine, '{% for p in data.people %}{% render "card", title: "T", who: p %}{% endfor %}', context, {
      resources: resources(),
    });
    expect(out).toBe('<div>THello A!</div><div>THello B!</div>');
  });

  it('accepts a key from a variable', async () => {
    const context = aContext({ data: { which: 'greeting' } });
    expect(await renderOk(engine, '{% render data.which, name: "V" %}', context, { resources: resources() })).toBe('Hello V!');
  });

  it('looks each partial up once per render', async () => {
    const r = resources();
    await renderOk(engine, '{% for i in (1..3) %}{% render "greeting", name: i %}{% endfor %}', aContext(), { resources: r });
    expect(r.calls).toEqual(['partial:greeting']);
  });

  it('escapes partial outputs in html mode like the template', async () => {
    const out = await renderOk(engine, '{% render "raw_html", value: data.v %}', aContext({ data: { v: '<b>' } }), {
      resources: resources(),
      escape: 'html',
    });
    expect(out).toBe('&lt;b&gt;');
  });

  it('renders the maximum depth (5 levels) and no deeper', async () => {
    expect(await renderOk(engine, '{% render "level1" %}', aContext(), { resources: resources() })).toBe('12345');
    const error = await renderError(engine, '{% render "level0" %}', aContext(), { resources: resources() });
    expect(error).toMatchObject({ code: 'template_limit', partial: 'level4' });
  });

  it('fails a missing partial with template_missing_partial at the render tag', async () => {
    const error = await renderError(engine, 'x\n  {% render "nowhere" %}', aContext(), { resources: resources() });
    expect(error).toEqual({ code: 'template_missing_partial', message: 'partial "nowhere" not found', line: 2, column: 3 });
  });

  it('names the partial in which a missing partial was rendered', async () => {
    const error = await renderError(engine, '{% render "uses_missing" %}', aContext(), { resources: resources() });
    expect(error).toEqual({
      code: 'template_missing_partial',
      message: 'partial "nowhere" not found',
      line: 2,
      column: 1,
      partial: 'uses_missing',
    });
  });

  it('fails without resources as a missing partial', async () => {
    expect((await renderError(engine, '{% render "greeting" %}')).code).toBe('template_missing_partial');
  });

  it('stops a partial that renders itself', async () => {
    const error = await renderError(engine, '{% render "self" %}', aContext(), { resources: resources() });
    expect(error.code).toBe('template_limit');
    expect(error.partial).toBe('self');
    expect(error.message).toContain('nested deeper than 5');
  });

  it('stops partials that render each other', async () => {
    expect((await renderError(engine, '{% render "ping" %}', aContext(), { resources: resources() })).code).toBe('template_limit');
  });

  it('reports a syntax error inside a partial with its position in the partial', async () => {
    const error = await renderError(engine, 'ok {% render "broken" %}', aContext(), { resources: resources() });
    expect(error).toEqual({ code: 'template_syntax', message: 'undefined filter: nope', line: 2, column: 1, partial: 'broken' });
  });

  it('fails an empty key', async () => {
    expect(await renderError(engine, '{% render data.none %}', aContext(), { resources: resources() })).toMatchObject({
      code: 'template_render',
      message: 'render was given an empty partial key',
    });
  });
});
