import { z } from 'zod';
import { Id } from './ids';
import { Cursor, PageQuery, queryInt } from './pagination';

describe('the id rule', () => {
  it.each(['u1', 'user@example.com', 'Ünïcödé', '用户', 'a:b|c', 'emoji-😀', '...', '.hidden', 'x'.repeat(255)])('accepts %s', (id) => {
    expect(Id.safeParse(id).success).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(256)],
    ['dot', '.'],
    ['dot dot', '..'],
    ['a slash', 'a/b'],
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['a line separator', 'a\u2028b'],
    ['NUL', 'a\u0000b'],
    ['a control character', 'a\u0007b'],
    ['a right-to-left override', 'a\u202eb'],
    ['a zero-width space', 'a\u200bb'],
    ['a byte order mark', '\ufeffa'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00'],
  ])('refuses %s, with one message', (_, id) => {
    const result = Id.safeParse(id);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
  });
});

describe('query numbers', () => {
  const size = queryInt(z.number().int().min(1).max(50)).default(50);
  it('reads one whole number and defaults when absent', () => {
    expect(size.parse('7')).toBe(7);
    expect(size.parse(undefined)).toBe(50);
  });
  it.each([[['1']], [{ 0: '1' }], [''], ['1e1'], ['0x10'], ['1.5'], [' 1'], ['51'], ['0']])('refuses %j', (value) => {
    expect(size.safeParse(value).success).toBe(false);
  });
});

describe('cursors', () => {
  const cursor = (values: unknown) => Buffer.from(JSON.stringify(values)).toString('base64url');
  it('accepts what the lists hand out', () => {
    expect(Cursor.safeParse(cursor(['2026-01-01T00:00:00Z', 'u1'])).success).toBe(true);
    expect(PageQuery.parse({ after: cursor(['x', null]) }).after).toBeDefined();
  });
  it.each(['garbage!', 'not-a-cursor', cursor({ a: 1 }), cursor([1, 2]), cursor([]), '%%%'])('refuses %s', (value) => {
    expect(Cursor.safeParse(value).success).toBe(false);
  });
});
