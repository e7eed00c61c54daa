import { FeedEntryT, FeedMetaT, FeedQueryT, PageInfoT } from '@notify/contracts';
import { encodeCursor, keysetPage } from '@notify/http/pagination';
import { DataSource } from 'typeorm';
import { MessageFilter, messageWhere } from './message-filters';
import { MESSAGE_COLUMNS, MESSAGE_ORDER, MessageQueries, MessageRow, RecipientLookup } from './messages.queries';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const STATUS_FILTER: Record<FeedQueryT['status'], string[] | undefined> = { all: undefined, unread: ['unread'], read: ['read'], unseen: ['unseen'], seen: ['seen'] };

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

export interface FeedPage {
  entries: FeedEntryT[];
  meta: FeedMetaT;
  page_info: PageInfoT;
}

/** A user's in-app feed on one channel, with counts from the feed counters when the filters allow. */
export class FeedQueries {
  private readonly messages: MessageQueries;
  private readonly recipients: RecipientLookup;

  constructor(private readonly db: DataSource) {
    this.messages = new MessageQueries(db);
    this.recipients = new RecipientLookup(db);
  }

  /** The feed's counts alone (what the realtime socket pushes): the same numbers as `meta` of a read. */
  async counts(environment: string, userId: string, channelId: string, q: FeedQueryT): Promise<FeedMetaT | undefined> {
    return this.meta(environment, userId, channelId, q, this.baseFilter(userId, channelId, q));
  }

  private baseFilter(userId: string, channelId: string, q: FeedQueryT): MessageFilter {
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

  async read(environment: string, userId: string, channelId: string, q: FeedQueryT): Promise<FeedPage | undefined> {
    const base = this.baseFilter(userId, channelId, q);
    const meta = await this.meta(environment, userId, channelId, q, base);
    if (!meta) return undefined;
    const { where, params } = messageWhere(environment, { ...base, engagement: STATUS_FILTER[q.status] });
    const { rows, pageInfo } = await keysetPage<MessageRow & { cursor_at: string }>(this.db, {
      select: `${MESSAGE_COLUMNS}, m.inserted_at::text AS cursor_at`,
      from: `FROM rm_messages m WHERE ${where}`,
      params,
      order: MESSAGE_ORDER,
      direction: 'desc',
      pageSize: q.page_size,
      after: q.after,
      before: q.before,
      withTotal: false,
    });
    const rich = q.mode === 'rich';
    const activities = rich ? await this.messages.activitiesOf(environment, rows.map((r) => r.id)) : new Map();
    const actorRefs = rows.flatMap((r) => (rich ? r.actors : r.actors.slice(0, 1)));
    const activityActors = [...activities.values()].flat().map((a) => a.actor);
    const recipient = await this.recipients.resolve(environment, [...actorRefs, ...activityActors, { type: 'user', id: userId }]);
    const entries = rows.map((row): FeedEntryT => {
      const content = row.content as { blocks?: FeedEntryT['blocks'] };
      const data = withoutAttachments(row.data);
      const entry: FeedEntryT = {
        __typename: 'FeedItem',
        __cursor: encodeCursor([row.cursor_at, row.id]),
        id: row.id,
        channel_id: row.channel_id,
        blocks: content.blocks ?? [],
        actors: (rich ? row.actors : row.actors.slice(0, 1)).map((a) => recipient(a)!),
        total_actors: row.total_actors,
        data: rich ? data : scalarsOnly(data),
        source: { __typename: 'NotificationSource', key: row.workflow_key, version_id: row.workflow_version, categories: row.workflow_categories },
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
      if (rich) {
        entry.activities = (activities.get(row.id) ?? []).map((a: { id: string; actor: never; data: Record<string, unknown> | null; inserted_at: Date }) => ({
          __typename: 'Activity',
          id: a.id,
          actor: recipient(a.actor),
          recipient: recipient({ type: 'user', id: userId }),
          data: withoutAttachments(a.data),
          inserted_at: iso(a.inserted_at),
          updated_at: iso(a.inserted_at),
        }));
        entry.total_activities = row.total_activities;
      }
      return entry;
    });
    return { entries, meta, page_info: pageInfo };
  }

  /**
   * Exact counts. Tenant and archived scope alone are answered from the counters the projection
   * keeps; any other filter is counted from the messages themselves. Undefined: the user is not known.
   */
  private async meta(environment: string, userId: string, channelId: string, q: FeedQueryT, base: MessageFilter): Promise<FeedMetaT | undefined> {
    const countersSuffice = !q.source && !q.workflow_categories?.length && !q.trigger_data && !q.inserted_at;
    let total: number;
    let unread: number;
    let unseen: number;
    if (countersSuffice) {
      const params: unknown[] = [environment, userId, channelId];
      let tenant = '';
      if (q.tenant !== undefined) {
        params.push(q.tenant);
        tenant = ' AND c.tenant = $4';
      } else if (q.has_tenant === true) tenant = " AND c.tenant <> ''";
      else if (q.has_tenant === false) tenant = " AND c.tenant = ''";
      const cols =
        q.archived === 'exclude'
          ? ['c.total', 'c.unread', 'c.unseen']
          : q.archived === 'only'
            ? ['c.archived_total', 'c.archived_unread', 'c.archived_unseen']
            : ['c.total + c.archived_total', 'c.unread + c.archived_unread', 'c.unseen + c.archived_unseen'];
      const [row] = await this.db.query<{ known: boolean; total: string; unread: string; unseen: string }[]>(
        `SELECT EXISTS (SELECT 1 FROM rm_users u WHERE u.environment = $1 AND u.id = $2) AS known,
           coalesce(sum(${cols[0]}), 0) AS total, coalesce(sum(${cols[1]}), 0) AS unread, coalesce(sum(${cols[2]}), 0) AS unseen
         FROM rm_feed_counts c WHERE c.environment = $1 AND c.user_id = $2 AND c.channel_id = $3${tenant}`,
        params,
      );
      if (!row.known) return undefined;
      [total, unread, unseen] = [Number(row.total), Number(row.unread), Number(row.unseen)];
    } else {
      const { where, params } = messageWhere(environment, base);
      params.push(userId);
      const [row] = await this.db.query<{ known: boolean; total: string; unread: string; unseen: string }[]>(
        `SELECT EXISTS (SELECT 1 FROM rm_users u WHERE u.environment = $1 AND u.id = $${params.length}) AS known, c.* FROM (
           SELECT count(*) AS total, count(*) FILTER (WHERE m.read_at IS NULL) AS unread, count(*) FILTER (WHERE m.seen_at IS NULL) AS unseen
           FROM rm_messages m WHERE ${where}) c`,
        params,
      );
      if (!row.known) return undefined;
      [total, unread, unseen] = [Number(row.total), Number(row.unread), Number(row.unseen)];
    }
    const byStatus: Record<FeedQueryT['status'], number> = { all: total, unread, read: total - unread, unseen, seen: total - unseen };
    return { __typename: 'FeedMetadata', total_count: byStatus[q.status], unread_count: unread, unseen_count: unseen };
  }
}
