import { z } from 'zod';

/** Query parameters of every cursor-paginated list. */
export const PageQuery = z.object({
  after: z.string().max(1024).optional(),
  before: z.string().max(1024).optional(),
  page_size: z.coerce.number().int().min(1).max(50).default(50),
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
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v) : [v]), z.array(item));

/** Counting stops here: beyond it the exact number is not worth a scan. */
export const TOTAL_COUNT_CAP = 10_000;
