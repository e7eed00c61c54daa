import { expandRecorded, MESSAGE_EVENT_TYPES, messageEventContracts, UserErased } from '@notify/contracts';
import { MessageCreatedData, MessageEvent } from '@notify/domain';
import { defineProjection, deferWrite, EntityManager, ProjectedEventOf } from '@notify/projection-runtime';
import { uuidV5 as uuidv5 } from '@notify/contracts';
import {
  FEED_ANNOUNCE_FROM,
  FEED_NOTIFY_CHANNEL,
  FEED_NOTIFY_MAX_AGE_MS,
  FeedNotification,
  feedNotificationOf,
  feedPayloads,
} from './feed-notifications';
import { CountedState, FeedCountDeltas } from './feed-counts';
import { erasedOr } from '../erased';

const LOG_NAMESPACE = '0e5f3c9a-5b7e-4f0e-9a64-1c2d3e4f5a6b';
const STATUS: Partial<Record<MessageEvent['type'], string>> = {
  MessageSent: 'sent',
  MessageDelivered: 'delivered',
  MessageDeliveryAttempted: 'delivery_attempted',
  MessageUndelivered: 'undelivered',
  MessageNotSent: 'not_sent',
  MessageBounced: 'bounced',
};
const ENGAGEMENT: Partial<Record<MessageEvent['type'], [column: EngagementColumn, set: boolean]>> = {
  MessageSeen: ['seen_at', true],
  MessageUnseen: ['seen_at', false],
  MessageRead: ['read_at', true],
  MessageUnread: ['read_at', false],
  MessageArchived: ['archived_at', true],
  MessageUnarchived: ['archived_at', false],
  MessageInteracted: ['interacted_at', true],
  MessageLinkClicked: ['link_clicked_at', true],
};
type EngagementColumn = 'seen_at' | 'read_at' | 'archived_at' | 'interacted_at' | 'link_clicked_at';
const ENGAGEMENT_COLUMNS: EngagementColumn[] = ['seen_at', 'read_at', 'archived_at', 'interacted_at', 'link_clicked_at'];

/** What a batch changes on one message row. */
interface Change {
  environment: string;
  id: string;
  created?: MessageCreatedData;
  status?: string;
  attempts?: number;
  engagement: Partial<Record<EngagementColumn, string | null>>;
  updatedAt: string;
  /** MessageCreated and engagement events of this batch: what moves a feed's version. */
  feedEvents: number;
}

function recipientColumns(ref: { type: 'user'; id: string } | { type: 'object'; collection: string; id: string }) {
  return ref.type === 'user' ? { type: 'user', id: ref.id, collection: null } : { type: 'object', id: ref.id, collection: ref.collection };
}

/**
 * Messages with their delivery status and engagement, their event history, delivery logs and
 * activities. A batch is applied set-wise: the events of one message are folded into one row
 * change first, so a message created and delivered in the same batch is written once.
 */
export const messagesProjection = defineProjection({
  name: 'messages',
  // The feed's visibility waits for it: it does not wait for the other projections' batches.
  lane: 'feed',
  version: 2,
  tables: ['rm_messages', 'rm_message_activities', 'rm_message_events', 'rm_message_delivery_logs', 'rm_feed_counts'],
  events: [...messageEventContracts, UserErased],

  async applyBatch(events, tx) {
    // Message events set-wise, in runs between erasures: an erasure removes what came before it.
    let run: MessageProjected[] = [];
    for (const event of events) {
      if (event.type !== 'UserErased') {
        run.push(event);
        continue;
      }
      if (run.length) await applyMessages(run, tx);
      run = [];
      await eraseRecipient(event.environment, event.data.user_id, tx);
    }
    if (run.length) await applyMessages(run, tx);
  },
});

type MessageProjected = ProjectedEventOf<(typeof messageEventContracts)[number]>;

/**
 * A user's personal data erased (ADR 0144): their messages go, with their events, delivery logs,
 * activities and feed counts. The log keeps the messages' events, their personal fields sealed
 * under the user's destroyed key; a rebuild creates the rows again and drops them here again.
 */
async function eraseRecipient(environment: string, userId: string, tx: EntityManager): Promise<void> {
  const theirs = `SELECT id FROM rm_messages WHERE environment = $1 AND recipient_type = 'user' AND recipient_id = $2`;
  for (const table of ['rm_message_activities', 'rm_message_events', 'rm_message_delivery_logs'])
    await tx.query(`DELETE FROM ${table} WHERE environment = $1 AND message_id IN (${theirs})`, [environment, userId]);
  await tx.query(`DELETE FROM rm_messages WHERE environment = $1 AND recipient_type = 'user' AND recipient_id = $2`, [environment, userId]);
  await tx.query('DELETE FROM rm_feed_counts WHERE environment = $1 AND user_id = $2', [environment, userId]);
}

async function applyMessages(events: readonly MessageProjected[], tx: EntityManager): Promise<void> {
  const changes = new Map<string, Change>();
  const publicEvents: unknown[][] = [];
  const logs: unknown[][] = [];
  const activities: unknown[][] = [];
  const announcements: FeedNotification[] = [];
  const announceAfter = Date.now() - FEED_NOTIFY_MAX_AGE_MS;
  // A compound entry (a message created delivered, ADR 0233) is read as the events it stands for.
  for (const event of events.flatMap((e) => expandRecorded(e))) {
    const environment = event.environment;
    const messageId = event.data.message_id;
    const key = `${environment}/${messageId}`;
    const change = changes.get(key) ?? {
      environment,
      id: messageId,
      engagement: {},
      updatedAt: event.createdAt.toISOString(),
      feedEvents: 0,
    };
    changes.set(key, change);
    change.updatedAt = event.createdAt.toISOString();
    if (event.type === 'MessageCreated') {
      change.feedEvents++;
      change.created = event.data;
      change.updatedAt = event.data.created_at;
      for (const a of erasedOr(event.data.activities, []))
        activities.push([environment, messageId, a.id, JSON.stringify(a.actor), JSON.stringify(a.data), a.inserted_at]);
      const announcement =
        event.createdAt.getTime() >= announceAfter ? feedNotificationOf(environment, event.data, event.position) : undefined;
      if (announcement) announcements.push(announcement);
    } else if (event.type === 'MessageDeliveryAttemptCompleted') {
      change.attempts = Math.max(change.attempts ?? 0, event.data.attempt);
      change.updatedAt = event.data.completed_at;
      erasedOr(event.data.logs, []).forEach((log, i) =>
        logs.push([
          environment,
          uuidv5(`${event.id}:${i}`, LOG_NAMESPACE),
          messageId,
          event.data.attempt,
          event.data.provider,
          JSON.stringify(log.request),
          JSON.stringify(log.response ?? (log.error ? { error: log.error } : null)),
          event.data.completed_at,
        ]),
      );
    } else if (event.type === 'MessageReceiptRecorded') {
      // A provider's receipt shows in the message's delivery logs as the request the provider made.
      const d = event.data;
      logs.push([
        environment,
        uuidv5(`${event.id}:receipt`, LOG_NAMESPACE),
        messageId,
        0,
        d.source,
        JSON.stringify({ method: 'POST', url: `/v1/receipts/${d.source}`, headers: {}, body: erasedOr(d.payload, {}) }),
        JSON.stringify({ status: 200, body: { kind: d.kind, bounce_type: d.bounce_type, reason: erasedOr(d.reason, null) } }),
        d.at,
      ]);
    } else if (STATUS[event.type]) {
      change.status = STATUS[event.type];
    } else if (ENGAGEMENT[event.type]) {
      change.feedEvents++;
      const [column, set] = ENGAGEMENT[event.type]!;
      change.engagement[column] = set ? (event.data as { at: string }).at : null;
    }
    const publicType = MESSAGE_EVENT_TYPES[event.type];
    if (publicType) {
      const { message_id: _m, ...data } = event.data;
      publicEvents.push([
        environment,
        event.id,
        messageId,
        publicType,
        JSON.stringify(event.type === 'MessageCreated' ? null : data),
        event.createdAt.toISOString(),
        event.revision,
        event.part,
      ]);
    }
  }

  const counts = new FeedCountDeltas();
  const created = [...changes.values()].filter((c) => c.created);
  for (const c of created) {
    const m = c.created!;
    if (m.channel.type !== FEED_CHANNEL_TYPE || m.recipient.type !== 'user') continue;
    counts.add(
      { environment: c.environment, userId: m.recipient.id, channelId: m.channel.id, tenant: m.tenant },
      null,
      countedAfter(c.engagement, null),
      c.feedEvents,
    );
  }
  await countEngagementChanges(
    tx,
    [...changes.values()].filter((c) => !c.created && Object.keys(c.engagement).length > 0),
    counts,
  );
  // Written with the batch's other inserts, in one statement, at the end (ADR 0252).
  const writes: { sql: string; params: unknown[] }[] = [];
  const countsWrite = counts.statement();
  if (countsWrite) writes.push(countsWrite);
  if (created.length) {
    const rows = created.map((c) => {
      const m = c.created!;
      const r = recipientColumns(m.recipient);
      return {
        environment: c.environment,
        id: m.message_id,
        channel_id: m.channel.id,
        channel_key: m.channel.key,
        channel_type: m.channel.type,
        provider: m.channel.provider,
        recipient_type: r.type,
        recipient_id: r.id,
        recipient_collection: r.collection,
        workflow_key: m.workflow.key,
        workflow_categories: m.workflow.categories,
        workflow_version: m.workflow.version,
        workflow_run_id: m.workflow_run_id,
        run_id: m.workflow_recipient_run_id,
        step_ref: m.step_ref,
        tenant: m.tenant,
        status: c.status ?? 'queued',
        attempts: c.attempts ?? 0,
        data: m.data,
        content: m.content,
        actors: m.actors,
        total_activities: m.total_activities,
        total_actors: m.total_actors,
        recipient_snapshot: m.recipient_snapshot,
        metadata: m.metadata,
        sandbox: m.sandbox,
        inserted_at: m.created_at,
        updated_at: c.updatedAt,
        ...Object.fromEntries(ENGAGEMENT_COLUMNS.map((col) => [col, c.engagement[col] ?? null])),
      };
    });
    writes.push({
      sql: `INSERT INTO rm_messages (environment, id, channel_id, channel_key, channel_type, provider, recipient_type, recipient_id, recipient_collection,
           workflow_key, workflow_categories, workflow_version, workflow_run_id, run_id, step_ref, tenant, status, attempts, data, content, actors,
           total_activities, total_actors, recipient_snapshot, metadata, sandbox, inserted_at, updated_at, seen_at, read_at, archived_at, interacted_at, link_clicked_at)
         SELECT environment, id, channel_id, channel_key, channel_type, provider, recipient_type, recipient_id, recipient_collection,
           workflow_key, ARRAY(SELECT jsonb_array_elements_text(workflow_categories)), workflow_version, workflow_run_id, run_id, step_ref, tenant, status, attempts, data, content, actors,
           total_activities, total_actors, recipient_snapshot, metadata, sandbox, inserted_at, updated_at, seen_at, read_at, archived_at, interacted_at, link_clicked_at
         FROM jsonb_to_recordset($1::jsonb) AS r(environment text, id uuid, channel_id uuid, channel_key text, channel_type text, provider text, recipient_type text,
           recipient_id text, recipient_collection text, workflow_key text, workflow_categories jsonb, workflow_version text, workflow_run_id uuid, run_id uuid,
           step_ref text, tenant text, status text, attempts int, data jsonb, content jsonb, actors jsonb, total_activities int, total_actors int,
           recipient_snapshot jsonb, metadata jsonb, sandbox boolean, inserted_at timestamptz, updated_at timestamptz, seen_at timestamptz, read_at timestamptz,
           archived_at timestamptz, interacted_at timestamptz, link_clicked_at timestamptz)
         ON CONFLICT (environment, id) DO NOTHING`,
      params: [JSON.stringify(rows)],
    });
  }

  // Messages created in an earlier batch: one update each, with every change of this batch.
  for (const c of changes.values()) {
    if (c.created) continue;
    const sets: string[] = [];
    const params: unknown[] = [c.environment, c.id, c.updatedAt];
    if (c.status) {
      params.push(c.status);
      sets.push(`status = $${params.length}`);
    }
    if (c.attempts !== undefined) {
      params.push(c.attempts);
      sets.push(`attempts = GREATEST(attempts, $${params.length})`);
    }
    for (const [column, value] of Object.entries(c.engagement)) {
      params.push(value);
      sets.push(`${column} = $${params.length}::timestamptz`);
    }
    await tx.query(`UPDATE rm_messages SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE environment = $1 AND id = $2`, params);
  }

  await insertRowsAndAnnounce(
    tx,
    writes,
    [
      {
        table: 'rm_message_activities',
        columns: ['environment', 'message_id', 'id', 'actor', 'data', 'inserted_at'],
        types: ['text', 'uuid', 'text', 'jsonb', 'jsonb', 'timestamptz'],
        rows: activities,
      },
      {
        table: 'rm_message_events',
        columns: ['environment', 'id', 'message_id', 'type', 'data', 'inserted_at', 'revision', 'part'],
        types: ['text', 'uuid', 'uuid', 'text', 'jsonb', 'timestamptz', 'int', 'smallint'],
        rows: publicEvents,
      },
      {
        table: 'rm_message_delivery_logs',
        columns: ['environment', 'id', 'message_id', 'attempt', 'service_name', 'request', 'response', 'inserted_at'],
        types: ['text', 'uuid', 'uuid', 'int', 'text', 'jsonb', 'jsonb', 'timestamptz'],
        rows: logs,
      },
    ],
    announcements,
  );
}

const FEED_CHANNEL_TYPE = 'in_app_feed';

function countedAfter(engagement: Change['engagement'], before: CountedState | null): CountedState {
  const flag = (column: EngagementColumn, was: boolean | undefined) => (column in engagement ? engagement[column] != null : (was ?? false));
  return { seen: flag('seen_at', before?.seen), read: flag('read_at', before?.read), archived: flag('archived_at', before?.archived) };
}

/** Reads the feed messages these changes touch as they were before the batch, and counts the differences. */
async function countEngagementChanges(tx: EntityManager, changed: Change[], counts: FeedCountDeltas): Promise<void> {
  if (changed.length === 0) return;
  const rows = await tx.query<
    {
      environment: string;
      id: string;
      recipient_id: string;
      channel_id: string;
      tenant: string | null;
      seen: boolean;
      read: boolean;
      archived: boolean;
    }[]
  >(
    `SELECT m.environment, m.id, m.recipient_id, m.channel_id, m.tenant, m.seen_at IS NOT NULL AS seen, m.read_at IS NOT NULL AS read, m.archived_at IS NOT NULL AS archived
     FROM rm_messages m JOIN unnest($1::text[], $2::uuid[]) AS k(environment, id) ON m.environment = k.environment AND m.id = k.id
     WHERE m.channel_type = '${FEED_CHANNEL_TYPE}' AND m.recipient_type = 'user'
     FOR UPDATE OF m`,
    [changed.map((c) => c.environment), changed.map((c) => c.id)],
  );
  const byKey = new Map(changed.map((c) => [`${c.environment}/${c.id}`, c]));
  for (const row of rows) {
    const change = byKey.get(`${row.environment}/${row.id}`)!;
    const before: CountedState = { seen: row.seen, read: row.read, archived: row.archived };
    counts.add(
      { environment: row.environment, userId: row.recipient_id, channelId: row.channel_id, tenant: row.tenant },
      before,
      countedAfter(change.engagement, before),
      change.feedEvents,
    );
  }
}

/**
 * The batch's writes in one statement, as data-modifying CTEs: `statements` (the feed counts'
 * upsert, the new messages' insert), the multi-row INSERTs (via unnest of typed arrays, ignoring
 * rows already there) and the feed announcements; one round trip where there were up to six
 * (ADR 0252). No part reads what another writes (the counts' deltas and every read were taken
 * before), the tables have no foreign keys between them, and the NOTIFYs are queued in the
 * transaction as before, delivered at its commit. Nothing reads its answer: it travels with the
 * transaction's COMMIT (ADR 0259).
 */
async function insertRowsAndAnnounce(
  tx: EntityManager,
  statements: readonly { sql: string; params: unknown[] }[],
  inserts: readonly { table: string; columns: string[]; types: string[]; rows: unknown[][] }[],
  announcements: readonly FeedNotification[],
): Promise<void> {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const statement of statements) {
    // Each statement numbers its parameters from $1: renumber after those already taken.
    const offset = params.length;
    params.push(...statement.params);
    parts.push(`i${parts.length} AS (${statement.sql.replace(/\$(\d+)/g, (_, n: string) => `$${offset + Number(n)}`)})`);
  }
  for (const { table, columns, types, rows } of inserts) {
    if (rows.length === 0) continue;
    const first = params.length + 1;
    params.push(...columns.map((_, i) => rows.map((r) => r[i])));
    parts.push(
      `i${parts.length} AS (INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(', ')}) ON CONFLICT DO NOTHING)`,
    );
  }
  const payloads = feedPayloads(announcements);
  if (payloads.length === 0) {
    if (parts.length) await deferWrite(tx, `WITH ${parts.join(', ')} SELECT 1`, params);
    return;
  }
  params.push(FEED_NOTIFY_CHANNEL, payloads);
  // A SELECT in WITH runs only when read: the final SELECT reads it.
  parts.push(`n AS (SELECT pg_notify($${params.length - 1}, p) ${FEED_ANNOUNCE_FROM(params.length)})`);
  await deferWrite(tx, `WITH ${parts.join(', ')} SELECT count(*) FROM n`, params);
}
