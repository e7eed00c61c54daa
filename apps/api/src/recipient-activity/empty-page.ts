import { PageInfoT } from '@notify/contracts';

/** The page a listing answers while its read model does not exist yet. */
export const emptyPageInfo = (pageSize: number): PageInfoT => ({ __typename: 'PageInfo', after: null, before: null, page_size: pageSize, total_count: 0 });
