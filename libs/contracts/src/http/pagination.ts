import { z } from 'zod';

/**
 * A whole number given once in a query string. Unlike z.coerce it refuses what only coerces to a
 * number by accident: `page_size[]=1` (an array), `page_size=` (empty), `1e1`, `0x10`.
 */
export const queryInt = <T extends z.ZodNumber>(bounds: T) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d{1,15}$/.test(v) ? Number(v) : v), bounds);

/** Cursors as the lists hand them out: base64url of a JSON array of strings (and nulls). */
function isCursor(value: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return false;
  try {
    const values = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(values) && values.length > 0 && values.every((v) => v === null || typeof v === 'string');
  } catch {
    return false;
  }
}

/** An opaque list cursor; a malformed one is refused by every list alike (422 on `after`/`before`). */
export const Cursor = z.string().max(1024).refine(isCursor, 'is not a valid cursor');

/** Query parameters of every cursor-paginated list. */
export const PageQuery = z.object({
  after: Cursor.optional(),
  before: Cursor.optional(),
  page_size: queryInt(z.number().int().min(1).max(50)).default(50),
});

export const PageInfo = z
  .object({
    __typename: z.literal('PageInfo'),
    after: z.string().nullable(),
    before: z.string().nullable(),
    page_size: z.number().int(),
    total_count: z.number().int().optional(),
  })
  .meta({ id: 'PageInfo' });

export type PageInfoT = z.infer<typeof PageInfo>;

export const listOf = <T extends z.ZodType>(entry: T) => z.object({ entries: z.array(entry), page_info: PageInfo });

/** Accepts `a=x`, `a[]=x` and `a[0]=x` alike: the query parser yields a string or an array. */
export const arrayParam = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) => (v === undefined || Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v) : [v]),
    z.array(item),
  );

/** Counting stops here: beyond it the exact number is not worth a scan. */
export const TOTAL_COUNT_CAP = 10_000;
