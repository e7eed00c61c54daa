import { jsonDepthExceeds, unstorableStrings } from './input-limits';

describe('jsonDepthExceeds', () => {
  const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[[[{{{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'quote \\" and [[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds(nested(64), 64)).toBe(false);
    expect(jsonDepthExceeds(nested(65), 64)).toBe(true);
  });

  it('scans a body nested 100,000 levels deep without recursion', () => {
    expect(jsonDepthExceeds(`{"x":${nested(100_000)}}`, 64)).toBe(true);
  });
});

describe('unstorableStrings', () => {
  it('names every string and key holding NUL or an unpaired surrogate by its path', () => {
    const found = unstorableStrings({ name: 'a\u0000b', ok: 'fine 😀', list: ['x', { deep: 'y\ud800' }], ['k\u0000']: 1 });
    expect(found.map((f) => f.field).sort()).toEqual(['k\\u0000', 'list.1.deep', 'name']);
    expect(found.every((f) => f.type === 'invalid_string')).toBe(true);
  });

  it('reports a bare string at the root, and nothing for storable values', () => {
    expect(unstorableStrings('\udc00')).toEqual([expect.objectContaining({ field: '(root)' })]);
    expect(unstorableStrings({ a: [1, true, null, 'ok', { b: 'é' }] })).toEqual([]);
    expect(unstorableStrings(undefined)).toEqual([]);
  });

  it('walks deeply nested values with its own stack and stops at the limit', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(unstorableStrings(deep)).toHaveLength(1);
    expect(
      unstorableStrings(
        Array.from({ length: 100 }, () => '\u0000'),
        20,
      ),
    ).toHaveLength(20);
  });
});
