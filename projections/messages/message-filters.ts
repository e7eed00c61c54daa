/** Every filter the message listings, feeds and channel-wide bulk actions take, as SQL over `rm_messages m`. */
export interface MessageFilter {
  recipient?: { type: 'user'; id: string } | { type: 'object'; collection: string; id: string };
  /** Any of these user recipients (bulk `recipient_ids` / `user_ids`). */
  userIds?: string[];
  channelId?: string;
  channelType?: string;
  tenant?: string;
  tenants?: string[];
  hasTenant?: boolean;
  status?: string[];
  /** Any of these engagement states. */
  engagement?: string[];
  messageIds?: string[];
  workflowCategories?: string[];
  source?: string;
  sources?: string[];
  workflowRunId?: string;
  workflowRecipientRunId?: string;
  triggerData?: Record<string, unknown>;
  insertedAt?: { gt?: string; gte?: string; lt?: string; lte?: string };
  archived?: 'exclude' | 'include' | 'only';
  /** Messages older than this many days are left out, except in-app ones. */
  retentionDays?: number;
}

const ENGAGEMENT_SQL: Record<string, string> = {
  seen: 'm.seen_at IS NOT NULL',
  unseen: 'm.seen_at IS NULL',
  read: 'm.read_at IS NOT NULL',
  unread: 'm.read_at IS NULL',
  archived: 'm.archived_at IS NOT NULL',
  unarchived: 'm.archived_at IS NULL',
  link_clicked: 'm.link_clicked_at IS NOT NULL',
  interacted: 'm.interacted_at IS NOT NULL',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string) => UUID.test(v);

/** In-app channel types, kept past the retention window. */
export const IN_APP_CHANNEL_TYPES = ['in_app_feed', 'in_app', 'in_app_guide'];

/** `WHERE` conditions (joined with AND) and their parameters, the environment always first. */
export function messageWhere(environment: string, f: MessageFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [environment];
  const where = ['m.environment = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (f.recipient) {
    add((p) => `m.recipient_type = ${p}`, f.recipient.type);
    add((p) => `m.recipient_id = ${p}`, f.recipient.id);
    if (f.recipient.type === 'object') add((p) => `m.recipient_collection = ${p}`, f.recipient.collection);
  }
  if (f.userIds) add((p) => `m.recipient_type = 'user' AND m.recipient_id = ANY(${p}::text[])`, f.userIds);
  if (f.channelId) add((p) => `m.channel_id = ${p}`, f.channelId);
  if (f.channelType) add((p) => `m.channel_type = ${p}`, f.channelType);
  if (f.tenant !== undefined) add((p) => `m.tenant = ${p}`, f.tenant);
  if (f.tenants) add((p) => `m.tenant = ANY(${p}::text[])`, f.tenants);
  if (f.hasTenant === true) where.push('m.tenant IS NOT NULL');
  if (f.hasTenant === false) where.push('m.tenant IS NULL');
  if (f.status?.length) add((p) => `m.status = ANY(${p}::text[])`, f.status);
  if (f.engagement?.length) where.push(`(${[...new Set(f.engagement)].map((e) => ENGAGEMENT_SQL[e]).join(' OR ')})`);
  if (f.messageIds) add((p) => `m.id = ANY(${p}::uuid[])`, f.messageIds.filter(isUuid));
  if (f.workflowCategories?.length) add((p) => `m.workflow_categories && ${p}::text[]`, f.workflowCategories);
  if (f.source !== undefined) add((p) => `m.workflow_key = ${p}`, f.source);
  if (f.sources) add((p) => `m.workflow_key = ANY(${p}::text[])`, f.sources);
  if (f.workflowRunId) add((p) => `m.workflow_run_id = ${p}`, f.workflowRunId);
  if (f.workflowRecipientRunId) add((p) => `m.run_id = ${p}`, f.workflowRecipientRunId);
  if (f.triggerData && Object.keys(f.triggerData).length) add((p) => `m.data @> ${p}::jsonb`, JSON.stringify(f.triggerData));
  for (const [op, sql] of [
    ['gt', '>'],
    ['gte', '>='],
    ['lt', '<'],
    ['lte', '<='],
  ] as const) {
    const value = f.insertedAt?.[op];
    if (value !== undefined) add((p) => `m.inserted_at ${sql} ${p}::timestamptz`, value);
  }
  if (f.archived === 'exclude') where.push('m.archived_at IS NULL');
  if (f.archived === 'only') where.push('m.archived_at IS NOT NULL');
  if (f.retentionDays !== undefined) {
    add(
      (p) =>
        `(m.channel_type = ANY('{${IN_APP_CHANNEL_TYPES.join(',')}}'::text[]) OR m.inserted_at >= now() - make_interval(days => ${p}::int))`,
      f.retentionDays,
    );
  }
  return { where: where.join(' AND '), params };
}
