import { TemplateEngine } from '../template-engine';
import { aContext, renderError, renderOk } from '../testing/fixtures';

const engine = new TemplateEngine();
const render = (source: string, data: Record<string, unknown> = {}, escape?: 'html') =>
  renderOk(engine, source, aContext({ data }), { escape });

describe('json', () => {
  it('serializes values as JSON', async () => {
    expect(
      await render('{{ data.o | json }}|{{ data.s | json }}|{{ data.n | json }}', { o: { id: 'u1', tags: ['a'] }, s: 'x"y', n: 2 }),
    ).toBe('{"id":"u1","tags":["a"]}|"x\\"y"|2');
  });

  it('is escaped in html mode like any output', async () => {
    expect(await render('{{ data.o | json }}', { o: { a: '<b>' } }, 'html')).toBe('{&#34;a&#34;:&#34;&lt;b&gt;&#34;}');
  });

  it('renders nil as empty', async () => {
    expect(await render('[{{ data.missing | json }}]')).toBe('[]');
  });
});

describe('from_json', () => {
  it('parses objects, arrays and scalars', async () => {
    const source =
      '{% assign o = data.o | from_json %}{{ o.name }}|{% assign a = data.a | from_json %}{{ a | join: "," }}|{% assign b = data.b | from_json %}{% if b %}yes{% else %}no{% endif %}';
    expect(await render(source, { o: '{"name":"Hammond"}', a: '[1,2,3]', b: 'false' })).toBe('Hammond|1,2,3|no');
  });

  it('round-trips with json, as a partial input would', async () => {
    expect(await render('{% assign back = data.items | json | from_json %}{{ back[1].v }}', { items: [{ v: 'a' }, { v: 'b' }] })).toBe('b');
  });

  it('gives nil for a string that is not JSON, and passes non-strings through', async () => {
    expect(
      await render('[{{ data.bad | from_json }}]{% assign x = data.bad | from_json %}{% if x == nil %}nil{% endif %}', { bad: '{nope' }),
    ).toBe('[]nil');
    expect(await render('{% assign x = data.o | from_json %}{{ x.k }}', { o: { k: 'v' } })).toBe('v');
  });
});

describe('pluralize', () => {
  it.each([
    [1, 'user'],
    ['1', 'user'],
    [0, 'users'],
    [2, 'users'],
    [1.5, 'users'],
    [null, 'users'],
    ['many', 'users'],
  ])('%p -> %s', async (n, expected) => {
    expect(await render('{{ data.n | pluralize: "user", "users" }}', { n })).toBe(expected);
  });

  it('adds an "s" when no plural is given', async () => {
    expect(await render('{{ 3 | pluralize: "comment" }}')).toBe('comments');
  });

  it('fails without a singular', async () => {
    expect((await renderError(engine, '{{ 3 | pluralize }}')).message).toBe('pluralize needs the singular form as first argument');
  });

  it('reads total_actors, as in Knock examples', async () => {
    expect(
      await renderOk(engine, '{{ total_actors }} {{ total_actors | pluralize: "person", "people" }}', aContext({ actors: [{ id: 'a' }] })),
    ).toBe('1 person');
  });
});

describe('titlecase', () => {
  it.each([
    ['my project name', 'My Project Name'],
    ['élan vital', 'Élan Vital'],
    ['API docs here', 'API Docs Here'],
    ['  two  spaces', '  Two  Spaces'],
    ['', ''],
    [42, '42'],
  ])('%p -> %p', async (s, expected) => {
    expect(await render('{{ data.s | titlecase }}', { s })).toBe(expected);
  });
});

describe('from_markdown', () => {
  it('renders markdown to HTML', async () => {
    expect(await render('{{ data.md | from_markdown }}', { md: '# Hello\n\n*there* [link](https://x.example)' })).toBe(
      '<h1>Hello</h1>\n<p><em>there</em> <a href="https://x.example" rel="noopener noreferrer">link</a></p>\n',
    );
  });

  it('drops scripts and dangerous links', async () => {
    const out = await render('{{ data.md | from_markdown }}', { md: '<script>alert(1)</script> [x](javascript:alert(1))' }, 'html');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('href="javascript');
  });

  it('renders nil as empty', async () => {
    expect(await render('[{{ data.none | from_markdown }}]')).toBe('[]');
  });
});

describe('intersect', () => {
  it('keeps the items of the first array found in the second, once, in order', async () => {
    const data = { a: ['Acme Corp', 'InGen', 'Biosyn', 'InGen'], b: ['InGen', 'Acme Corp', 'Other'] };
    expect(await render('{{ data.a | intersect: data.b | join: ", " }}', data)).toBe('Acme Corp, InGen');
  });

  it('compares objects by value', async () => {
    const data = { a: [{ id: 1 }, { id: 2 }], b: [{ id: 2 }] };
    expect(await render('{{ data.a | intersect: data.b | json }}', data)).toBe('[{"id":2}]');
  });

  it('gives an empty list when either side is not a list', async () => {
    expect(await render('{{ data.a | intersect: data.b | size }}|{{ data.b | intersect: data.a | size }}', { a: 'x', b: ['x'] })).toBe(
      '0|0',
    );
  });
});

describe('compare_versions', () => {
  it.each([
    ['1.0.0', '2.0.0', '-1'],
    ['2.0.0', '1.9.9', '1'],
    ['1.2.3', '1.2.3', '0'],
    ['v1.2', '1.2.0', '0'],
    ['1.10.0', '1.9.0', '1'],
    ['1.0.0-alpha', '1.0.0', '-1'],
    ['1.0.0-alpha.2', '1.0.0-alpha.10', '-1'],
    ['1.0.0-beta', '1.0.0-alpha', '1'],
    ['1.0.0-alpha', '1.0.0-alpha.1', '-1'],
    ['1.0.0+build.5', '1.0.0', '0'],
  ])('%s vs %s -> %s', async (a, b, expected) => {
    expect(await render('{{ data.a | compare_versions: data.b }}', { a, b })).toBe(expected);
  });

  it('gives nil when either side is not a version', async () => {
    expect(await render('[{{ data.a | compare_versions: "1.0.0" }}][{{ "1.0.0" | compare_versions: data.none }}]', { a: 'latest' })).toBe(
      '[][]',
    );
  });
});
