import { FeedEntryT, FeedMetaT, FeedQueryT, PageInfoT, RecipientRefT, workflowVersionId } from '@notify/contracts';
import { encodeCursor, keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';
import { MessageFilter, messageWhere } from './message-filters';
import { MESSAGE_COLUMNS, MESSAGE_ORDER, MessageQueries, MessageRow, RecipientLookup, UserRow, usersResolver } from './messages.queries';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const STATUS_FILTER: Record<FeedQueryT['status'], string[] | undefined> = {
  all: undefined,
  unread: ['unread'],
  read: ['read'],
  unseen: ['unseen'],
  seen: ['seen'],
};

/** Trigger data never carries its attachments into a feed. */
function withoutAttachments(data: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!data || !('attachments' in data)) return data;
  const { attachments: _a, ...rest } = data;
  return rest;
}

/** compact mode: only scalar values of `data`. */
function scalarsOnly(data: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!data) return data;
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v === null || typeof v !== 'object'));
}

function prepare(row: MessageRow & { cursor_at: string }, activities: ActivityRow[] | undefined): PreparedEntry {
  const content = row.content as { blocks?: FeedEntryT['blocks'] };
  const data = withoutAttachments(row.data);
  const fields: PreparedEntry['fields'] = {
    __typename: 'FeedItem',
    __cursor: encodeCursor([row.cursor_at, row.id]),
    id: row.id,
    channel_id: row.channel_id,
    blocks: content.blocks ?? [],
    total_actors: row.total_actors,
    data: activities ? data : scalarsOnly(data),
    source: {
      __typename: 'NotificationSource',
      key: row.workflow_key,
      version_id: workflowVersionId(row.environment, row.workflow_key, row.workflow_version),
      categories: row.workflow_categories,
    },
    tenant: row.tenant,
    seen_at: iso(row.seen_at),
    read_at: iso(row.read_at),
    interacted_at: iso(row.interacted_at),
    link_clicked_at: iso(row.link_clicked_at),
    clicked_at: iso(row.link_clicked_at),
    archived_at: iso(row.archived_at),
    inserted_at: iso(row.inserted_at)!,
    updated_at: iso(row.updated_at)!,
  };
  if (!activities) return { fields, actors: row.actors.slice(0, 1) };
  return {
    fields: { ...fields, total_activities: row.total_activities },
    actors: row.actors,
    activities: activities.map((a) => ({
      __typename: 'Activity',
      id: a.id,
      actor: a.actor,
      data: withoutAttachments(a.data),
      inserted_at: iso(a.inserted_at),
      updated_at: iso(a.inserted_at),
    })),
  };
}

type ActivityRow = { id: string; actor: RecipientRefT | null; data: Record<string, unknown> | null; inserted_at: Date };

/** An entry as far as it does not depend on recipients' current profiles. */
interface PreparedEntry {
  fields: Omit<FeedEntryT, 'actors' | 'activities'>;
  actors: RecipientRefT[];
  activities?: (Omit<NonNullable<FeedEntryT['activities']>[number], 'actor' | 'recipient'> & { actor: RecipientRefT | null })[];
}

/** A page as read from the database, kept under the feed version it was read at. */
interface CachedPage {
  version: string;
  entries: PreparedEntry[];
  pageInfo: PageInfoT;
  /** Counted from the messages (filters the counters cannot answer); undefined: from the counters. */
  meta?: FeedMetaT;
  /** The page's actors (and the reader) as references, and the user ids among them. */
  refs: (RecipientRefT | null)[];
  userIds: string[];
  /** Whether every actor is a user (so the version check can read their profiles too). */
  onlyUsers: boolean;
  /** The entries as JSON, for the user profiles (as text) they were resolved with. */
  serialized?: Serialized;
}

interface Serialized {
  users: string;
  entries: string;
  pageInfo: string;
}

interface FeedState {
  known: boolean;
  version: string;
  meta: FeedMetaT;
  /** The users asked for alongside, as JSON text (compared as is with what a cached page used). */
  users: string;
  /** The environment's public variables as JSON text (secret ones never reach a feed). */
  vars: string;
}

const byStatus = (q: FeedQueryT, total: number, unread: number, unseen: number): FeedMetaT => {
  const counts: Record<FeedQueryT['status'], number> = { all: total, unread, read: total - unread, unseen, seen: total - unseen };
  return { __typename: 'FeedMetadata', total_count: counts[q.status], unread_count: unread, unseen_count: unseen };
};

/** The counters answer tenant and archived scopes; other filters are counted from the messages. */
const countersSuffice = (q: FeedQueryT) => !q.source && !q.workflow_categories?.length && !q.trigger_data && !q.inserted_at;

function baseFilter(userId: string, channelId: string, q: FeedQueryT): MessageFilter {
  return {
    recipient: { type: 'user', id: userId },
    channelId,
    channelType: 'in_app_feed',
    tenant: q.tenant,
    hasTenant: q.has_tenant,
    source: q.source,
    workflowCategories: q.workflow_categories,
    triggerData: q.trigger_data,
    insertedAt: q.inserted_at,
    archived: q.archived,
  };
}

/**
 * A user's in-app feed on one channel. Counts come from the counters the messages projection
 * keeps when the filters allow, else from the messages. Pages are cached per process under the
 * feed's version (moved by the projection with every change to a message of the feed), so a
 * repeated read costs one small query and every change is seen at once, in any process (ADR 0074).
 * Actors and variables are read on every read (in the same statement as the version): a renamed
 * actor or a changed variable shows at once too. One statement for a read the cache answers.
 */
export class FeedQueries {
  private readonly messages: MessageQueries;
  private readonly recipients: RecipientLookup;
  private readonly cache = new Map<string, CachedPage>();

  constructor(
    private readonly db: DataSource,
    private readonly options: { cachedPages: number } = { cachedPages: 500 },
  ) {
    this.messages = new MessageQueries(db);
    this.recipients = new RecipientLookup(db);
  }

  /** The feed's counts alone (what the realtime socket pushes): the same numbers as `meta` of a read. */
  async counts(environment: string, userId: string, channelId: string, q: FeedQueryT): Promise<FeedMetaT | undefined> {
    // No actors to look up: counts only.
    const state = await this.state(environment, userId, channelId, q, []);
    if (!state.known) return undefined;
    return countersSuffice(q) ? state.meta : this.countedMeta(environment, q, baseFilter(userId, channelId, q));
  }

  /**
   * The feed as the JSON text of the response (a user the service does not know has an empty one). A read the cache answers splices
   * text: the page's
   * entries as serialized for the same actor profiles, the counts, and the variables as the
   * database printed them. Building and serializing 50 entries on every read allocated enough to
   * bring a major GC every few seconds under load, each one stalling the process for up to a few
   * hundred milliseconds (BENCHMARKS.md, feed reads). Text rather than a Buffer: a new buffer per
   * read is memory outside the JS heap, whose growth brings major GCs just the same.
   */
  async readJson(environment: string, userId: string, channelId: string, q: FeedQueryT): Promise<string> {
    const base = baseFilter(userId, channelId, q);
    const { exclude: _e, ...shape } = q;
    const key = JSON.stringify([environment, userId, channelId, shape]);
    // The cached page's actors (users) are read with the version check: one statement when it holds.
    const cached = this.cache.get(key);
    const state = await this.state(environment, userId, channelId, q, cached?.onlyUsers ? cached.userIds : []);
    if (!state.known) {
      const meta: FeedMetaT = { __typename: 'FeedMetadata', total_count: 0, unread_count: 0, unseen_count: 0 };
      const pageInfo: PageInfoT = { __typename: 'PageInfo', after: null, before: null, page_size: q.page_size };
      return `{"entries":[],"meta":${JSON.stringify(meta)},"page_info":${JSON.stringify(pageInfo)},"vars":${state.vars}}`;
    }
    let page = cached;
    let resolve: ((ref: RecipientRefT | null) => Record<string, unknown> | null) | undefined;
    let users: string | undefined;
    if (page && page.version === state.version) {
      if (page.onlyUsers) {
        if (page.serialized?.users === state.users) return this.answer(page, page.serialized, state);
        users = state.users;
        resolve = usersResolver(JSON.parse(state.users) as UserRow[]);
      } else resolve = await this.recipients.resolve(environment, page.refs);
    } else {
      page = await this.load(environment, userId, q, base, state.version);
      this.remember(key, page);
      resolve = await this.recipients.resolve(environment, page.refs);
    }
    const self = resolve({ type: 'user', id: userId });
    const entries = page.entries.map((e): FeedEntryT => {
      const entry: FeedEntryT = { ...e.fields, actors: e.actors.map((a) => resolve(a)!) };
      if (e.activities) entry.activities = e.activities.map(({ actor, ...a }) => ({ ...a, actor: resolve(actor), recipient: self }));
      return entry;
    });
    const serialized: Serialized = { users: users ?? '', entries: JSON.stringify(entries), pageInfo: JSON.stringify(page.pageInfo) };
    // Kept only when resolved from the profiles the version check reads, so the next check can tell.
    if (users !== undefined) page.serialized = serialized;
    return this.answer(page, serialized, state);
  }

  private answer(page: CachedPage, serialized: Serialized, state: FeedState): string {
    return `{"entries":${serialized.entries},"meta":${JSON.stringify(page.meta ?? state.meta)},"page_info":${serialized.pageInfo},"vars":${state.vars}}`;
  }

  private remember(key: string, page: CachedPage): void {
    if (this.options.cachedPages <= 0) return;
    this.cache.delete(key);
    this.cache.set(key, page);
    while (this.cache.size > this.options.cachedPages) this.cache.delete(this.cache.keys().next().value!);
  }

  private async load(environment: string, userId: string, q: FeedQueryT, base: MessageFilter, version: string): Promise<CachedPage> {
    const page = await this.loadEntries(environment, q, base, version);
    const refs: (RecipientRefT | null)[] = [
      ...page.entries.flatMap((e) => [...e.actors, ...(e.activities ?? []).map((a) => a.actor)]),
      { type: 'user', id: userId },
    ];
    const onlyUsers = refs.every((r) => r?.type !== 'object');
    const userIds = [...new Set(refs.flatMap((r) => (r?.type === 'user' ? [r.id] : [])))];
    return { ...page, refs, userIds, onlyUsers };
  }

  private async loadEntries(
    environment: string,
    q: FeedQueryT,
    base: MessageFilter,
    version: string,
  ): Promise<Pick<CachedPage, 'version' | 'entries' | 'pageInfo' | 'meta'>> {
    const { where, params } = messageWhere(environment, { ...base, engagement: STATUS_FILTER[q.status] });
    const [{ rows, pageInfo }, meta] = await Promise.all([
      keysetPage<MessageRow & { cursor_at: string }>(this.db, {
        select: `${MESSAGE_COLUMNS}, m.inserted_at::text AS cursor_at`,
        from: `FROM rm_messages m WHERE ${where}`,
        params,
        order: MESSAGE_ORDER,
        direction: 'desc',
        pageSize: q.page_size,
        after: q.after,
        before: q.before,
        withTotal: false,
      }),
      countersSuffice(q) ? undefined : this.countedMeta(environment, q, base),
    ]);
    const rich = q.mode === 'rich';
    const activities = rich
      ? await this.messages.activitiesOf(
          environment,
          rows.map((r) => r.id),
        )
      : new Map<string, ActivityRow[]>();
    return { version, entries: rows.map((row) => prepare(row, rich ? (activities.get(row.id) ?? []) : undefined)), pageInfo, meta };
  }

  /**
   * Whether the user is known, the feed's version, and the counts the counters hold for the
   * tenant and archived scope of the query, in one statement.
   */
  private async state(environment: string, userId: string, channelId: string, q: FeedQueryT, userIds: string[]): Promise<FeedState> {
    const params: unknown[] = [environment, userId, channelId, userIds];
    let tenant = 'true';
    if (q.tenant !== undefined) {
      params.push(q.tenant);
      tenant = 'c.tenant = $5';
    } else if (q.has_tenant === true) tenant = "c.tenant <> ''";
    else if (q.has_tenant === false) tenant = "c.tenant = ''";
    const cols =
      q.archived === 'exclude'
        ? ['c.total', 'c.unread', 'c.unseen']
        : q.archived === 'only'
          ? ['c.archived_total', 'c.archived_unread', 'c.archived_unseen']
          : ['c.total + c.archived_total', 'c.unread + c.archived_unread', 'c.unseen + c.archived_unseen'];
    const [row] = await this.db.query<
      { known: boolean; version: string; total: string; unread: string; unseen: string; users: string; vars: string }[]
    >(
      `SELECT EXISTS (SELECT 1 FROM rm_users u WHERE u.environment = $1 AND u.id = $2) AS known, coalesce(sum(c.version), 0)::text AS version,
         (SELECT coalesce(jsonb_object_agg(v.key, coalesce(v.environment_values -> $1, v.value)), '{}') FROM rm_variables v
          WHERE v.type <> 'secret' AND jsonb_typeof(coalesce(v.environment_values -> $1, v.value, 'null'::jsonb)) <> 'object')::text AS vars,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('id', u.id, 'properties', u.properties, 'updated_at', u.updated_at) ORDER BY u.id), '[]') FROM rm_users u
          WHERE u.environment = $1 AND u.id = ANY($4::text[]))::text AS users,
         coalesce(sum(${cols[0]}) FILTER (WHERE ${tenant}), 0) AS total, coalesce(sum(${cols[1]}) FILTER (WHERE ${tenant}), 0) AS unread,
         coalesce(sum(${cols[2]}) FILTER (WHERE ${tenant}), 0) AS unseen
       FROM rm_feed_counts c WHERE c.environment = $1 AND c.user_id = $2 AND c.channel_id = $3`,
      params,
    );
    return {
      known: row.known,
      version: row.version,
      meta: byStatus(q, Number(row.total), Number(row.unread), Number(row.unseen)),
      users: row.users,
      vars: row.vars,
    };
  }

  /** Exact counts for filters the counters do not keep (source, categories, trigger data, time). */
  private async countedMeta(environment: string, q: FeedQueryT, base: MessageFilter): Promise<FeedMetaT> {
    const { where, params } = messageWhere(environment, base);
    const [row] = await this.db.query<{ total: string; unread: string; unseen: string }[]>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE m.read_at IS NULL) AS unread, count(*) FILTER (WHERE m.seen_at IS NULL) AS unseen
       FROM rm_messages m WHERE ${where}`,
      params,
    );
    return byStatus(q, Number(row.total), Number(row.unread), Number(row.unseen));
  }
}
