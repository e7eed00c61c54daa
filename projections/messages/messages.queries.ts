import {
  environmentId,
  MessageActivityT,
  MessageContentsT,
  MessageDeliveryLogT,
  MessageEventEntryT,
  MessageT,
  PageInfoT,
  RecipientRefT,
  RecipientReferenceT,
  workflowVersionId,
} from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';
import { isUuid, MessageFilter, messageWhere } from './message-filters';

export interface MessageRow extends Record<string, unknown> {
  id: string;
  channel_id: string;
  channel_type: string;
  channel_key: string;
  environment: string;
  provider: string;
  /** Name and times from the channels read model (null once the channel is gone; not read for feeds). */
  channel?: { name: string; created_at: string; updated_at: string } | null;
  recipient_type: 'user' | 'object';
  recipient_id: string;
  recipient_collection: string | null;
  workflow_key: string;
  workflow_categories: string[];
  workflow_version: string | null;
  workflow_run_id: string;
  run_id: string;
  step_ref: string;
  tenant: string | null;
  status: MessageT['status'];
  seen_at: Date | null;
  read_at: Date | null;
  archived_at: Date | null;
  interacted_at: Date | null;
  link_clicked_at: Date | null;
  data: Record<string, unknown> | null;
  content: Record<string, unknown> & { channel_type: string };
  actors: RecipientRefT[];
  total_activities: number;
  total_actors: number;
  recipient_snapshot: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  inserted_at: Date;
  updated_at: Date;
}

export const MESSAGE_COLUMNS =
  'm.environment, m.id, m.channel_id, m.channel_type, m.channel_key, m.provider, m.recipient_type, m.recipient_id, m.recipient_collection, m.workflow_key, m.workflow_categories, m.workflow_version, ' +
  'm.workflow_run_id, m.run_id, m.step_ref, m.tenant, m.status, m.seen_at, m.read_at, m.archived_at, m.interacted_at, m.link_clicked_at, m.data, m.content, ' +
  'm.actors, m.total_activities, m.total_actors, m.recipient_snapshot, m.metadata, m.inserted_at, m.updated_at';

/** The channel's name and times for a Message answer (the feed does not need them). */
const MESSAGE_CHANNEL =
  "(SELECT jsonb_build_object('name', c.name, 'created_at', c.created_at, 'updated_at', c.updated_at) FROM rm_channels c WHERE c.id = m.channel_id) AS channel";

export const MESSAGE_ORDER = [
  { expr: 'm.inserted_at', type: 'timestamptz' as const },
  { expr: 'm.id', type: 'uuid' as const },
];

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const referenceOf = (ref: RecipientRefT): RecipientReferenceT =>
  ref.type === 'user' ? ref.id : { id: ref.id, collection: ref.collection };

export const recipientOf = (row: Pick<MessageRow, 'recipient_type' | 'recipient_id' | 'recipient_collection'>): RecipientRefT =>
  row.recipient_type === 'user'
    ? { type: 'user', id: row.recipient_id }
    : { type: 'object', collection: row.recipient_collection!, id: row.recipient_id };

export function engagementStatusesOf(
  row: Pick<MessageRow, 'seen_at' | 'read_at' | 'archived_at' | 'interacted_at' | 'link_clicked_at'>,
): MessageT['engagement_statuses'] {
  const out: MessageT['engagement_statuses'] = [];
  if (row.seen_at) out.push('seen');
  if (row.read_at) out.push('read');
  if (row.interacted_at) out.push('interacted');
  if (row.link_clicked_at) out.push('link_clicked');
  if (row.archived_at) out.push('archived');
  return out;
}

export function toMessage(row: MessageRow): MessageT {
  return {
    __typename: 'Message',
    id: row.id,
    channel_id: row.channel_id,
    channel: {
      id: row.channel_id,
      key: row.channel_key,
      name: row.channel?.name ?? null,
      type: row.channel_type,
      provider: row.provider,
      created_at: row.channel ? iso(new Date(row.channel.created_at)) : null,
      updated_at: row.channel ? iso(new Date(row.channel.updated_at)) : null,
    },
    recipient: referenceOf(recipientOf(row)),
    actors: row.actors.map(referenceOf),
    workflow: row.workflow_key,
    tenant: row.tenant,
    status: row.status,
    engagement_statuses: engagementStatusesOf(row),
    seen_at: iso(row.seen_at),
    read_at: iso(row.read_at),
    interacted_at: iso(row.interacted_at),
    link_clicked_at: iso(row.link_clicked_at),
    clicked_at: iso(row.link_clicked_at),
    archived_at: iso(row.archived_at),
    scheduled_at: null,
    data: row.data,
    metadata: row.metadata,
    recipient_snapshot: row.recipient_snapshot,
    source: {
      __typename: 'NotificationSource',
      key: row.workflow_key,
      version_id: workflowVersionId(row.environment, row.workflow_key, row.workflow_version),
      categories: row.workflow_categories,
      step_ref: row.step_ref,
      workflow_run_id: row.workflow_run_id,
      workflow_recipient_run_id: row.run_id,
    },
    inserted_at: iso(row.inserted_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** The rendered content in the reference's per-channel shapes. */
export function toContents(row: Pick<MessageRow, 'id' | 'content' | 'inserted_at'>): MessageContentsT {
  const { channel_type, ...c } = row.content as Record<string, any>;
  let data: Record<string, unknown>;
  switch (channel_type) {
    case 'email':
      data = {
        __typename: 'MessageEmailContent',
        from: c.from,
        to: c.to,
        cc: c.cc ?? null,
        bcc: c.bcc ?? null,
        reply_to: c.reply_to ?? null,
        subject_line: c.subject,
        html_body: c.html_body,
        text_body: c.text_body,
      };
      break;
    case 'sms':
      data = { __typename: 'MessageSmsContent', to: c.to, body: c.body };
      break;
    case 'push':
      data = {
        __typename: 'MessagePushContent',
        token: (c.tokens ?? [])[0] ?? null,
        tokens: c.tokens,
        title: c.title,
        body: c.body,
        data: c.data ?? null,
      };
      break;
    case 'chat':
      data = {
        __typename: 'MessageChatContent',
        connection: c.connections?.[0] ?? {},
        template: { summary: c.summary ?? null, markdown_body: c.text, blocks: c.blocks ?? null, json_body: c.json ?? null },
        metadata: null,
      };
      break;
    case 'in_app_feed':
      data = { __typename: 'MessageInAppFeedContent', blocks: c.blocks, action_url: c.action_url ?? null };
      break;
    case 'in_app_guide':
      data = { __typename: 'MessageInAppGuideContent', guide_key: c.guide_key, step_ref: c.step_ref, content: c.content };
      break;
    default:
      data = { __typename: 'MessageHttpContent', ...c };
  }
  return { __typename: 'MessageContent', message_id: row.id, data, inserted_at: iso(row.inserted_at)! };
}

function toDeliveryLog(
  environment: string,
  row: { id: string; service_name: string; request: any; response: any; inserted_at: Date },
): MessageDeliveryLogT {
  let host = '';
  let path = row.request?.url ?? '';
  let query: string | null = null;
  try {
    const url = new URL(row.request.url);
    host = url.host;
    path = url.pathname;
    query = url.search ? url.search.slice(1) : null;
  } catch {
    // not a URL (an SMTP exchange): the whole address is the path
  }
  const response = row.response ?? {};
  // The reference has no null for a body or a status: a request without a body, or an attempt that
  // got no answer, leaves them out.
  const requestBody = row.request?.body ?? undefined;
  const responseBody = response.body ?? (response.error ? { error: response.error } : undefined);
  return {
    __typename: 'MessageDeliveryLog',
    id: row.id,
    environment_id: environmentId(environment),
    service_name: row.service_name,
    request: {
      method: String(row.request?.method ?? 'POST').toUpperCase(),
      host,
      path,
      query,
      headers: row.request?.headers ?? null,
      ...(requestBody === undefined ? {} : { body: requestBody }),
    },
    response: {
      ...(typeof response.status === 'number' ? { status: response.status } : {}),
      headers: response.headers ?? null,
      ...(responseBody === undefined ? {} : { body: responseBody }),
    },
    inserted_at: iso(row.inserted_at)!,
  };
}

type Page = { after?: string; before?: string; page_size: number };

/** Messages and their histories; every query is scoped by the environment it is given. */
export class MessageQueries {
  constructor(private readonly db: DataSource) {}

  async list(environment: string, filter: MessageFilter, page: Page): Promise<{ items: MessageT[]; page_info: PageInfoT }> {
    const { where, params } = messageWhere(environment, filter);
    const { rows, pageInfo } = await keysetPage<MessageRow>(this.db, {
      select: `${MESSAGE_COLUMNS}, ${MESSAGE_CHANNEL}`,
      from: `FROM rm_messages m WHERE ${where}`,
      params,
      order: MESSAGE_ORDER,
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { items: rows.map(toMessage), page_info: pageInfo };
  }

  async rows(environment: string, ids: readonly string[], retentionDays?: number): Promise<MessageRow[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const { where, params } = messageWhere(environment, { messageIds: valid, retentionDays });
    return this.db.query<MessageRow[]>(`SELECT ${MESSAGE_COLUMNS}, ${MESSAGE_CHANNEL} FROM rm_messages m WHERE ${where}`, params);
  }

  async get(environment: string, id: string, retentionDays?: number): Promise<MessageT | undefined> {
    const [row] = await this.rows(environment, [id], retentionDays);
    return row && toMessage(row);
  }

  /** Several messages, in the order of `ids` (absent ones left out). */
  async getMany(environment: string, ids: readonly string[], retentionDays?: number): Promise<MessageT[]> {
    const byId = new Map((await this.rows(environment, ids, retentionDays)).map((r) => [r.id, r]));
    return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [toMessage(byId.get(id)!)] : []));
  }

  async contents(environment: string, ids: readonly string[], retentionDays?: number): Promise<MessageContentsT[]> {
    const byId = new Map((await this.rows(environment, ids, retentionDays)).map((r) => [r.id, r]));
    return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [toContents(byId.get(id)!)] : []));
  }

  async events(environment: string, message: MessageT, page: Page): Promise<{ items: MessageEventEntryT[]; page_info: PageInfoT }> {
    const { rows, pageInfo } = await keysetPage<{ id: string; type: string; data: Record<string, unknown> | null; inserted_at: Date }>(
      this.db,
      {
        select: 'e.id, e.type, e.data, e.inserted_at',
        from: 'FROM rm_message_events e WHERE e.environment = $1 AND e.message_id = $2',
        params: [environment, message.id],
        // A compound entry's events share its revision; `part` orders them (ADR 0233).
        order: [
          { expr: 'e.revision', type: 'integer' },
          { expr: 'e.part', type: 'integer' },
        ],
        direction: 'desc',
        pageSize: page.page_size,
        after: page.after,
        before: page.before,
        withTotal: false,
      },
    );
    const items = rows.map((e): MessageEventEntryT => ({
      __typename: 'MessageEvent',
      id: e.id,
      type: e.type,
      recipient: message.recipient,
      data: e.data,
      inserted_at: iso(e.inserted_at)!,
    }));
    return { items, page_info: pageInfo };
  }

  async deliveryLogs(environment: string, messageId: string, page: Page): Promise<{ items: MessageDeliveryLogT[]; page_info: PageInfoT }> {
    const { rows, pageInfo } = await keysetPage<{
      id: string;
      service_name: string;
      request: unknown;
      response: unknown;
      inserted_at: Date;
    }>(this.db, {
      select: 'l.id, l.service_name, l.request, l.response, l.inserted_at',
      from: 'FROM rm_message_delivery_logs l WHERE l.environment = $1 AND l.message_id = $2',
      params: [environment, messageId],
      order: [
        { expr: 'l.inserted_at', type: 'timestamptz' },
        { expr: 'l.id', type: 'uuid' },
      ],
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { items: rows.map((r) => toDeliveryLog(environment, r)), page_info: pageInfo };
  }

  /** Activities of one message, newest first; `triggerData` keeps those whose data contains it. */
  async activityRows(environment: string, messageId: string, page: Page, triggerData?: Record<string, unknown>) {
    const params: unknown[] = [environment, messageId];
    let extra = '';
    if (triggerData && Object.keys(triggerData).length) {
      params.push(JSON.stringify(triggerData));
      extra = ' AND a.data @> $3::jsonb';
    }
    return keysetPage<{ id: string; actor: RecipientRefT | null; data: Record<string, unknown> | null; inserted_at: Date }>(this.db, {
      select: 'a.id, a.actor, a.data, a.inserted_at',
      from: `FROM rm_message_activities a WHERE a.environment = $1 AND a.message_id = $2${extra}`,
      params,
      order: [
        { expr: 'a.inserted_at', type: 'timestamptz' },
        { expr: 'a.id', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
  }

  /** The activities of many messages (feed entries), oldest first per message. */
  async activitiesOf(
    environment: string,
    messageIds: readonly string[],
  ): Promise<Map<string, { id: string; actor: RecipientRefT | null; data: Record<string, unknown> | null; inserted_at: Date }[]>> {
    const out = new Map<string, { id: string; actor: RecipientRefT | null; data: Record<string, unknown> | null; inserted_at: Date }[]>();
    if (messageIds.length === 0) return out;
    const rows = await this.db.query<
      { message_id: string; id: string; actor: RecipientRefT | null; data: Record<string, unknown> | null; inserted_at: Date }[]
    >(
      'SELECT message_id, id, actor, data, inserted_at FROM rm_message_activities WHERE environment = $1 AND message_id = ANY($2::uuid[]) ORDER BY inserted_at, id',
      [environment, messageIds],
    );
    for (const r of rows) {
      const list = out.get(r.message_id) ?? [];
      list.push(r);
      out.set(r.message_id, list);
    }
    return out;
  }

  /** Ids of the messages matching a filter, oldest first, at most `limit` (a channel-wide bulk action). */
  async matchingIds(environment: string, filter: MessageFilter, limit: number): Promise<string[]> {
    const { where, params } = messageWhere(environment, filter);
    params.push(limit);
    const rows = await this.db.query<{ id: string }[]>(
      `SELECT m.id FROM rm_messages m WHERE ${where} ORDER BY m.inserted_at, m.id LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => r.id);
  }
}

export type UserRow = { id: string; properties: Record<string, unknown>; updated_at: Date | string };
const toRecipientUser = (r: UserRow): Record<string, unknown> => ({
  __typename: 'User',
  id: r.id,
  ...r.properties,
  updated_at: new Date(r.updated_at).toISOString(),
});

/** A lookup over users already read (no objects among the references). */
export function usersResolver(rows: readonly UserRow[]): (ref: RecipientRefT | null) => Record<string, unknown> | null {
  const users = new Map(rows.map((r) => [r.id, toRecipientUser(r)]));
  return (ref) =>
    ref
      ? ref.type === 'user'
        ? (users.get(ref.id) ?? { __typename: 'User', id: ref.id })
        : { __typename: 'Object', id: ref.id, collection: ref.collection }
      : null;
}

/** Recipients (users from the users read model, objects by reference) for actors and activities. */
export class RecipientLookup {
  constructor(private readonly db: DataSource) {}

  async resolve(
    environment: string,
    refs: readonly (RecipientRefT | null)[],
  ): Promise<(ref: RecipientRefT | null) => Record<string, unknown> | null> {
    const userIds = [...new Set(refs.filter((r): r is RecipientRefT => r?.type === 'user').map((r) => r.id))];
    const objects = refs.filter((r): r is Extract<RecipientRefT, { type: 'object' }> => r?.type === 'object');
    const userRows = userIds.length
      ? await this.db.query<UserRow[]>('SELECT id, properties, updated_at FROM rm_users WHERE environment = $1 AND id = ANY($2::text[])', [
          environment,
          userIds,
        ])
      : [];
    const users = new Map(userRows.map((r) => [r.id, toRecipientUser(r)]));
    const objectRows = new Map<string, Record<string, unknown>>();
    if (objects.length) {
      const rows = await this.db.query<{ collection: string; id: string; properties: Record<string, unknown>; updated_at: Date }[]>(
        'SELECT o.collection, o.id, o.properties, o.updated_at FROM rm_objects o JOIN unnest($2::text[], $3::text[]) AS k(collection, id) ON o.collection = k.collection AND o.id = k.id WHERE o.environment = $1',
        [environment, objects.map((o) => o.collection), objects.map((o) => o.id)],
      );
      for (const r of rows)
        objectRows.set(`${r.collection}/${r.id}`, {
          __typename: 'Object',
          id: r.id,
          collection: r.collection,
          ...r.properties,
          updated_at: iso(r.updated_at),
        });
    }
    return (ref) => {
      if (!ref) return null;
      if (ref.type === 'user') return users.get(ref.id) ?? { __typename: 'User', id: ref.id };
      return objectRows.get(`${ref.collection}/${ref.id}`) ?? { __typename: 'Object', id: ref.id, collection: ref.collection };
    };
  }
}

export type { MessageFilter };
export { isUuid };
export type ActivityRow = { id: string; actor: RecipientRefT | null; data: Record<string, unknown> | null; inserted_at: Date };
export const toActivity = (
  a: ActivityRow,
  actor: Record<string, unknown> | null,
  recipient: Record<string, unknown> | null,
): MessageActivityT => ({
  __typename: 'Activity',
  id: a.id,
  actor,
  recipient,
  data: a.data,
  inserted_at: iso(a.inserted_at)!,
  updated_at: iso(a.inserted_at)!,
});
