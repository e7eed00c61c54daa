import { DEFAULT_LIMITS } from './limits';
import { TemplateEngine } from './template-engine';
import { aContext, fakeResources, renderError, renderOk } from './testing/fixtures';

const engine = new TemplateEngine();
const withData = (data: Record<string, unknown>) => aContext({ data });

describe('limits', () => {
  it('has documented defaults, which options override', () => {
    expect(engine.limits).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toEqual({
      maxTemplateSize: 262_144,
      renderTimeoutMs: 1_000,
      maxLoopIterations: 10_000,
      maxOutputSize: 1_048_576,
      maxMemory: 2_000_000,
      maxCollectionSize: 10_000,
      maxPartialDepth: 5,
      defaultLocale: 'en',
    });
    expect(new TemplateEngine({ maxLoopIterations: 5, defaultLocale: 'fr' }).limits).toEqual({
      ...DEFAULT_LIMITS,
      maxLoopIterations: 5,
      defaultLocale: 'fr',
    });
  });

  it.each([{ maxOutputSize: 0 }, { renderTimeoutMs: -1 }, { maxMemory: Number.NaN }, { defaultLocale: '' }])(
    'refuses the option %p',
    (options) => {
      expect(() => new TemplateEngine(options)).toThrow(TypeError);
    },
  );

  describe('runaway loops', () => {
    it('stops {% for i in (1..100000000) %} with a template_limit error', async () => {
      const error = await renderError(engine, 'start\n{% for i in (1..100000000) %}{{ i }}{% endfor %}');
      expect(error).toMatchObject({ code: 'template_limit', line: 2, column: 1 });
    });

    it('stops a loop over a long list after maxLoopIterations', async () => {
      const patient = new TemplateEngine({ renderTimeoutMs: 20_000 }); // a busy CI machine must not turn this into a time limit
      const items = Array.from({ length: 10_001 }, (_, i) => i);
      expect(await renderError(patient, '{% for i in data.items %}.{% endfor %}', withData({ items }))).toMatchObject({
        code: 'template_limit',
        message: 'loops ran more than 10000 iterations',
      });
      expect((await renderOk(patient, '{% for i in data.items %}.{% endfor %}', withData({ items: items.slice(1) }))).length).toBe(10_000);
    });

    it('counts nested loops, loops in partials and tablerow cells together', async () => {
      const small = new TemplateEngine({ maxLoopIterations: 100 });
      expect((await renderError(small, '{% for a in (1..11) %}{% for b in (1..10) %}{% endfor %}{% endfor %}')).code).toBe(
        'template_limit',
      );
      const resources = fakeResources({ partials: { row: '{% for c in (1..10) %}{{ c }}{% endfor %}' } });
      const error = await renderError(small, '{% for r in (1..10) %}{% render "row" %}{% endfor %}', aContext(), { resources });
      expect(error).toMatchObject({ code: 'template_limit', partial: 'row' });
      expect((await renderError(small, '{% tablerow c in (1..101) %}{{ c }}{% endtablerow %}')).code).toBe('template_limit');
      expect((await small.render('{% for a in (1..9) %}{% for b in (1..10) %}{% endfor %}{% endfor %}', aContext())).ok).toBe(true);
    });

    it('counts what runs, not the size of the collection', async () => {
      expect(
        await renderOk(
          engine,
          '{% for i in (1..50000) limit: 3 %}{{ i }}{% endfor %}|{% for i in (1..50000) %}{% if i > 2 %}{% break %}{% endif %}{{ i }}{% endfor %}',
        ),
      ).toBe('123|12');
    });
  });

  describe('template size', () => {
    const small = new TemplateEngine({ maxTemplateSize: 100 });

    it('rejects an oversized template at validation and at render', async () => {
      const source = 'x'.repeat(101);
      expect(small.validate(source)).toEqual([{ code: 'template_limit', message: 'template is larger than the limit of 100 characters' }]);
      expect(await renderError(small, source)).toEqual({
        code: 'template_limit',
        message: 'template is larger than the limit of 100 characters',
      });
    });

    it('accepts a template of exactly the limit', async () => {
      expect(small.validate('x'.repeat(100))).toEqual([]);
      expect(await renderOk(small, 'x'.repeat(100))).toHaveLength(100);
    });

    it('applies to partials too', async () => {
      const resources = fakeResources({ partials: { big: 'y'.repeat(101) } });
      expect(await renderError(small, 'a\n{% render "big" %}', aContext(), { resources })).toEqual({
        code: 'template_limit',
        message: 'partial "big": template is larger than the limit of 100 characters',
        line: 2,
        column: 1,
      });
    });
  });

  describe('output size', () => {
    const small = new TemplateEngine({ maxOutputSize: 1_000 });

    it('rejects output past the limit', async () => {
      const error = await renderError(small, '{% for i in (1..200) %}{{ data.chunk }}{% endfor %}', withData({ chunk: '0123456789' }));
      expect(error).toMatchObject({ code: 'template_limit', message: 'output is larger than the limit of 1000 characters' });
    });

    it('accepts output of exactly the limit', async () => {
      expect(await renderOk(small, '{% for i in (1..100) %}{{ data.chunk }}{% endfor %}', withData({ chunk: '0123456789' }))).toHaveLength(
        1_000,
      );
    });

    it('bounds a capture that doubles itself', async () => {
      const source = '{% assign s = "x" %}{% for i in (1..64) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s | size }}';
      expect((await renderError(small, source)).code).toBe('template_limit');
    });

    it('rejects the output of a straight-line template (rendered without promises, ADR 0283) past the limit', async () => {
      const source = 'x{{ data.chunk | append: data.chunk }}y';
      expect(small.straightLine(source)).toBe(true);
      expect(await renderOk(small, source, withData({ chunk: 'a'.repeat(499) }))).toHaveLength(1_000);
      const error = await renderError(small, source, withData({ chunk: 'a'.repeat(500) }));
      expect(error).toMatchObject({ code: 'template_limit', message: 'output is larger than the limit of 1000 characters' });
    });

    it('bounds the whole email', async () => {
      const result = await small.renderEmail(
        { subject: 's', html: '{{ data.big }}' },
        withData({ big: 'z'.repeat(1_001) }),
        fakeResources(),
      );
      expect(result).toMatchObject({ ok: false, error: { code: 'template_limit', field: 'html_body' } });
    });
  });

  describe('filter input size', () => {
    // Issue 15: one filter over a huge range ran for 9-12 s, since liquidjs checks its time limit only between nodes.
    it('refuses a huge range before it is made, and a large one before a filter walks it', async () => {
      expect(await renderError(engine, 'a\n{% assign a = (1..5000000) | where: "x", 1 %}{{ a | size }}')).toMatchObject({
        code: 'template_limit',
        message: 'memory limit exceeded (a range, array or string in the template is too large)',
        line: 2,
      });
      expect(await renderError(engine, '{% assign a = (1..20000) | where: "x", 1 %}{{ a | size }}')).toMatchObject({
        code: 'template_limit',
        message: 'the where filter was given 20000 items, more than the limit of 10000',
      });
    });

    it('refuses arrays from the data past the limit, as input or as argument, and takes them up to it', async () => {
      const small = new TemplateEngine({ maxCollectionSize: 100 });
      const items = Array.from({ length: 101 }, (_, i) => ({ x: i % 2 }));
      expect(await renderError(small, '{{ data.items | where: "x", 1 | size }}', withData({ items }))).toMatchObject({
        code: 'template_limit',
        message: 'the where filter was given 101 items, more than the limit of 100',
      });
      expect(await renderError(small, '{{ data.few | concat: data.items | size }}', withData({ items, few: [1] }))).toMatchObject({
        code: 'template_limit',
        message: expect.stringContaining('the concat filter was given 101 items'),
      });
      expect(await renderError(small, '{{ data.items | sort_natural: "x" | size }}', withData({ items }))).toMatchObject({
        code: 'template_limit',
      });
      expect(await renderOk(small, '{{ data.items | where: "x", 1 | size }}', withData({ items: items.slice(1) }))).toBe('50');
    });

    it('applies to a straight-line template, rendered without promises (ADR 0283)', async () => {
      const small = new TemplateEngine({ maxCollectionSize: 100 });
      const source = '{{ data.items | join: "," }}';
      expect(small.straightLine(source)).toBe(true);
      const items = Array.from({ length: 101 }, (_, i) => i);
      expect(await renderError(small, source, withData({ items }))).toMatchObject({
        code: 'template_limit',
        message: 'the join filter was given 101 items, more than the limit of 100',
      });
      expect(await renderOk(small, source, withData({ items: items.slice(0, 3) }))).toBe('0,1,2');
    });

    it('applies to Knock helper filters too', async () => {
      const small = new TemplateEngine({ maxCollectionSize: 3 });
      expect((await renderError(small, '{{ data.a | intersect: data.b | json }}', withData({ a: [1, 2, 3, 4], b: [1] }))).code).toBe(
        'template_limit',
      );
      expect(await renderOk(small, '{{ data.a | intersect: data.b | json }}', withData({ a: [1, 2, 3], b: [1] }))).toBe('[1]');
    });
  });

  describe('memory', () => {
    it('stops a string that doubles itself through assign', async () => {
      const source = '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s.size }}';
      const error = await renderError(engine, source);
      expect(error).toMatchObject({ code: 'template_limit' });
      expect(error.message).toContain('memory limit exceeded');
    });
  });

  describe('render time', () => {
    const fast = new TemplateEngine({ renderTimeoutMs: 50, maxLoopIterations: 10_000_000, maxOutputSize: 1e9, maxMemory: 1e9 });

    it('stops a render that computes for longer than the limit', async () => {
      // The message names the time limit: the render was cut off, it did not run to its end.
      const error = await renderError(fast, '{% for i in (1..1000000) %}{{ i | sha256 | sha256 }}{% endfor %}');
      expect(error).toMatchObject({ code: 'template_limit', message: 'render time limit exceeded' });
    });

    it('stops a render whose partial lookup never answers', async () => {
      const resources = { ...fakeResources(), partial: () => new Promise<undefined>(() => undefined) };
      const error = await renderError(fast, 'x{% render "slow" %}', aContext(), { resources });
      expect(error).toEqual({ code: 'template_limit', message: 'render time limit exceeded' });
    });
  });

  it('keeps working after a render hit a limit', async () => {
    await renderError(engine, '{% for i in (1..100000000) %}{% endfor %}');
    expect(await renderOk(engine, '{% for i in (1..3) %}{{ i }}{% endfor %}')).toBe('123');
  });
});
