import { FeedQuery, FeedQueryT } from '@notify/contracts';

/** The part of a feed client's options that decides which messages it counts and is told about. */
export interface FeedFilter {
  tenant?: string;
  has_tenant?: boolean;
  archived: 'exclude' | 'include' | 'only';
  source?: string;
  workflow_categories?: string[];
}

/** A new in-app message, as the realtime fan-out carries it. */
export interface FeedSignal {
  environment: string;
  userId: string;
  channelId: string;
  messageId: string;
  tenant: string | null;
  workflowKey: string;
  categories: string[];
}

export interface FeedCountsT {
  total_count: number;
  unread_count: number;
  unseen_count: number;
}

const bool = (v: unknown): boolean | undefined => (v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads a client's join params leniently: unknown options (page_size, status, ...) do not change counts here. */
export function feedFilterOf(params: unknown): FeedFilter {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const archived = p.archived === 'include' || p.archived === 'only' ? p.archived : 'exclude';
  const categories = Array.isArray(p.workflow_categories)
    ? p.workflow_categories.filter((c): c is string => typeof c === 'string')
    : undefined;
  return {
    archived,
    tenant: str(p.tenant),
    has_tenant: bool(p.has_tenant),
    source: str(p.source),
    workflow_categories: categories?.length ? categories : undefined,
  };
}

/** Whether a client with this filter shows the new message (it is neither read nor archived yet). */
export function filterMatches(filter: FeedFilter, signal: FeedSignal): boolean {
  if (filter.archived === 'only') return false;
  if (filter.tenant !== undefined && signal.tenant !== filter.tenant) return false;
  if (filter.has_tenant === true && signal.tenant === null) return false;
  if (filter.has_tenant === false && signal.tenant !== null) return false;
  if (filter.source !== undefined && signal.workflowKey !== filter.source) return false;
  if (filter.workflow_categories && !filter.workflow_categories.some((c) => signal.categories.includes(c))) return false;
  return true;
}

/**
 * A client's join params as the feed endpoint's query. Options the endpoint would refuse are
 * dropped one by one (the client's own fetch reports them); the rest still shape the counts.
 */
export function feedQueryOf(params: unknown): FeedQueryT {
  const input: Record<string, unknown> = typeof params === 'object' && params !== null ? { ...(params as Record<string, unknown>) } : {};
  for (let attempt = 0; attempt < 10; attempt++) {
    const parsed = FeedQuery.safeParse(input);
    if (parsed.success) return parsed.data;
    const offending = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')));
    if (![...offending].some((k) => k in input)) break;
    for (const key of offending) delete input[key];
  }
  return FeedQuery.parse({});
}
