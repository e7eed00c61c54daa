import { TemplateEngine } from '../template-engine';
import { aContext, fakeResources } from '../testing/fixtures';
import { IsolatedRenderer } from './isolated-renderer';

/**
 * Issue 15, "Template CPU": `(1..5000000) | where: "x", 1` kept one event loop busy for seconds,
 * stalling unrelated runs. The engine now refuses such input (limits.spec.ts); these tests lift
 * those bounds so the template really runs away, and show what the worker threads add.
 */
const RUNAWAY = '{% assign a = (1..5000000) | where: "x", 1 %}{{ a | size }}';
const unbounded = { maxCollectionSize: 1e9, maxMemory: 1e9, renderTimeoutMs: 600_000 };
const normal = (i: number) => `Hello {{ recipient.name }} #${i}{% render "footer" %}`;
const resources = () => fakeResources({ partials: { footer: ' - {{ "sent" | upcase }}' } });

describe('IsolatedRenderer', () => {
  const renderers: IsolatedRenderer[] = [];
  const renderer = (options: ConstructorParameters<typeof IsolatedRenderer>[0]) => {
    const made = new IsolatedRenderer(options);
    renderers.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(renderers.splice(0).map((r) => r.close()));
  });

  it('renders what the in-process engine renders, resources included', async () => {
    const isolated = renderer({ threads: 1, hardTimeoutMs: 20_000 });
    const engine = new TemplateEngine();
    const context = aContext({ data: { items: [{ n: 'a' }, { n: 'b' }] } });
    const source = '{{ recipient.name | upcase }}: {{ data.items | map: "n" | join: "," }}{% render "footer" %} {{ "3" | plus: 4 }}';
    const asked = resources();
    expect(await isolated.render(source, context, asked)).toEqual(await engine.render(source, context, resources()));
    expect(await isolated.render(source, context, asked)).toEqual({ ok: true, output: 'JANE DOE: a,b - SENT 7' });
    expect(asked.calls).toEqual(['partial:footer', 'partial:footer']);

    const layouts = fakeResources({ layouts: { main: { html_layout: '<main>{{ content }}</main>', text_layout: '[{{ content }}]' } } });
    const email = {
      layoutKey: 'main',
      subject: 'Hi {{ recipient.name }}',
      html: '<b>{{ data.project }}</b>',
      text: 'Project {{ data.project }}',
    };
    expect(await isolated.renderEmail(email, aContext(), layouts)).toEqual({
      ok: true,
      subject: 'Hi Jane Doe',
      html: '<main><b>Park</b></main>',
      text: '[Project Park]',
    });
    expect(await isolated.render('{{ x', aContext())).toMatchObject({ ok: false, error: { code: 'template_syntax' } });
  });

  it('reports a resource that fails as template_resource, as the engine does', async () => {
    const isolated = renderer({ threads: 1, hardTimeoutMs: 20_000 });
    const failing = { partial: async () => Promise.reject(new Error('database unavailable')) };
    expect(await isolated.render('{% render "x" %}', aContext(), failing)).toMatchObject({
      ok: false,
      error: { code: 'template_resource', message: expect.stringContaining('database unavailable') },
    });
  });

  it('keeps 20 normal renders going while a runaway template holds a thread', async () => {
    const isolated = renderer({ threads: 2, hardTimeoutMs: 600_000, limits: unbounded });
    let runawayDone = false;
    const runaway = isolated.render(RUNAWAY, aContext()).finally(() => (runawayDone = true));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => isolated.render(normal(i), aContext(), resources())));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => ({ ok: true, output: `Hello Jane Doe #${i} - SENT` })));
    // The runaway takes far longer than its hard limit allows here; it is still running.
    expect(runawayDone).toBe(false);
    await isolated.close();
    expect(await runaway).toMatchObject({ ok: false, error: { code: 'template_render' } });
  });

  it('stops runaways at the hard time limit with a clear template error, and goes on rendering', async () => {
    const isolated = renderer({ threads: 2, hardTimeoutMs: 300, limits: unbounded });
    const runaways = [1, 2, 3].map(() => isolated.render(RUNAWAY, aContext()));
    const normals = Array.from({ length: 20 }, (_, i) => isolated.render(normal(i), aContext(), resources()));
    expect(await Promise.all(normals)).toEqual(Array.from({ length: 20 }, (_, i) => ({ ok: true, output: `Hello Jane Doe #${i} - SENT` })));
    for (const result of await Promise.all(runaways)) {
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'template_limit',
          message: 'the render was stopped after 300 ms (hard time limit): the template keeps the CPU busy too long',
        },
      });
    }
    expect(await isolated.render('{{ 1 | plus: 1 }}', aContext())).toEqual({ ok: true, output: '2' });
  });

  it('renders straight-line templates on the calling thread, anything with a tag or a non-linear filter on a thread, with the same results', async () => {
    const isolated = renderer({ threads: 1, hardTimeoutMs: 20_000 });
    const engine = new TemplateEngine();
    const context = aContext({ data: { n: 3, items: ['b', 'a'] } });
    const inline = [
      'Hi {{ recipient.name | upcase }}, {{ data.n | plus: 1 }}',
      'plain text',
      '{{ data.items | join: ", " | default: "none" }}',
    ];
    const threaded = [
      '{% if data.n %}yes{% endif %}',
      '{{ data.items | sort | join }}',
      '{{ (1..3) | join }}',
      '{{ data.items | join: (1..2) }}',
      '{{ recipient.name | strip_html }}',
      '{% render "footer" %}',
      '{{ "k" | t }}',
    ];
    for (const source of inline) {
      const before = { ...isolated.counts };
      expect(await isolated.render(source, context, resources())).toEqual(await engine.render(source, context, resources()));
      expect(isolated.counts).toEqual({ threaded: before.threaded, inline: before.inline + 1 });
    }
    for (const source of threaded) {
      const before = { ...isolated.counts };
      expect(await isolated.render(source, context, resources())).toEqual(await engine.render(source, context, resources()));
      expect(isolated.counts).toEqual({ threaded: before.threaded + 1, inline: before.inline });
    }
    // Escaping follows the options on either thread.
    expect(await isolated.render('<b>{{ data.html }}</b>', aContext({ data: { html: '<i>' } }), undefined, { escape: 'html' })).toEqual({
      ok: true,
      output: '<b>&lt;i&gt;</b>',
    });
  });

  it('refuses nonsense options', () => {
    expect(() => new IsolatedRenderer({ threads: 0, hardTimeoutMs: 100 })).toThrow(TypeError);
  });
});
