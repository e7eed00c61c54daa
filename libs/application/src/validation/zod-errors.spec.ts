import { z } from 'zod';
import { fieldErrors } from './zod-errors';

describe('fieldErrors of unions', () => {
  const Slack = z.strictObject({ connections: z.array(z.strictObject({ channel_id: z.string() })), token: z.string().optional() });
  const Teams = z.strictObject({ connections: z.array(z.unknown()), ms_teams_tenant_id: z.guid().nullable().optional() });
  const Push = z.strictObject({ tokens: z.array(z.string()) });
  const Body = z.strictObject({ data: z.union([Push, Slack, Teams]) });

  const errorsOf = (schema: z.ZodType, value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) throw new Error('expected a failure');
    return fieldErrors(result.error);
  };

  it('names the nested field of the closest variant and what it expected', () => {
    expect(errorsOf(Body, { data: { ms_teams_tenant_id: 'tenant-abc', connections: [] } })).toEqual([
      { field: 'data.ms_teams_tenant_id', message: expect.stringMatching(/GUID|UUID/), type: 'invalid_format' },
    ]);
  });

  it('follows nested unions down to the offending field', () => {
    const Outer = z.strictObject({ items: z.array(z.union([z.strictObject({ url: z.url() }), z.strictObject({ id: z.number() })])) });
    expect(errorsOf(Outer, { items: [{ id: 1 }, { id: 'x' }] })).toEqual([
      { field: 'items.1.id', message: expect.stringContaining('expected number'), type: 'invalid_type' },
    ]);
  });

  it('lists what each variant expected when none matched better than another', () => {
    const [error] = errorsOf(z.strictObject({ kind: z.union([z.literal('a'), z.literal('b')]) }), { kind: 'c' });
    expect(error).toMatchObject({ field: 'kind', type: 'invalid_union' });
    expect(error.message).toContain('"a"');
    expect(error.message).toContain('"b"');
    expect(error.message).not.toBe('Invalid input');
  });

  it('reports an unknown key as not permitted when the rest of the shape matched', () => {
    expect(errorsOf(Body, { data: { tokens: ['t'], extra: 1 } })).toEqual([
      { field: 'data.extra', message: 'is not a permitted field', type: 'unrecognized_key' },
    ]);
  });
});
