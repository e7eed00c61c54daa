import { withLiterals } from './deferred-writes';

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

describe('withLiterals (ADR 0259)', () => {
  it('writes each parameter in as node-postgres would send it, $10 apart from $1', () => {
    const params = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', "j'k"];
    expect(withLiterals('SELECT $1, $10, $2::int', params, quote)).toBe(`SELECT 'a', 'j''k', 'b'::int`);
    expect(withLiterals('SELECT $1, $2, $3, $4', [null, undefined, 5, true], quote)).toBe(`SELECT NULL, NULL, '5', 'true'`);
    expect(withLiterals('SELECT $1::text[], $2::jsonb', [['x', null, 'y"z'], { a: [1] }], quote)).toBe(
      `SELECT '{"x",NULL,"y\\"z"}'::text[], '{"a":[1]}'::jsonb`,
    );
  });

  it('gives up on a value without a text form (binary): the write is then sent as a parameter', () => {
    expect(withLiterals('SELECT $1', [Buffer.from('x')], quote)).toBeUndefined();
  });
});
