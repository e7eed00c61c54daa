import { LogEventT, StreamCategoryT } from '@notify/contracts';
import { invalidParams } from '@notify/domain';
import { LogPosition, RecordedEvent, START } from '@notify/eventstore';

/**
 * Pure pieces of reading the log for auditors: cursors, the filters the store cannot apply
 * itself (time, environment), categories, and how an event is shown.
 */

/** Where a read goes on: after a log position, or at a revision of a stream in a direction. */
export type HistoryCursor =
  { kind: 'log'; position: LogPosition } | { kind: 'stream'; direction: 'forwards' | 'backwards'; revision: number };

const LOG_POSITION = /^[0-9a-f]{32}$/;

/** base64url of a JSON array of strings, like every other list cursor of the API. */
export function encodeHistoryCursor(cursor: HistoryCursor): string {
  const parts = cursor.kind === 'log' ? ['log', cursor.position] : ['stream', cursor.direction, String(cursor.revision)];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

/** Undefined for anything that is not a cursor this module handed out. */
export function decodeHistoryCursor(value: string): HistoryCursor | undefined {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts)) return undefined;
  if (parts.length === 2 && parts[0] === 'log' && typeof parts[1] === 'string' && (parts[1] === START || LOG_POSITION.test(parts[1])))
    return { kind: 'log', position: parts[1] };
  if (
    parts.length === 3 &&
    parts[0] === 'stream' &&
    (parts[1] === 'forwards' || parts[1] === 'backwards') &&
    typeof parts[2] === 'string' &&
    /^\d{1,15}$/.test(parts[2])
  )
    return { kind: 'stream', direction: parts[1], revision: Number(parts[2]) };
  return undefined;
}

/** `after` of a log read: a cursor, or an event's `position` as shown; anything else is a 422 on `after`. */
export function logPositionOf(after: string | undefined): LogPosition | undefined {
  if (after === undefined) return undefined;
  if (LOG_POSITION.test(after)) return after;
  const cursor = decodeHistoryCursor(after);
  if (cursor?.kind === 'log') return cursor.position;
  throw invalidParams([{ field: 'after', message: 'is not a cursor of this list or an event position', type: 'invalid' }]);
}

/** What the store cannot filter on: when the event was recorded and in which environment. */
export interface EventRefinement {
  since?: Date;
  until?: Date;
  environment?: string;
}

export function matchesRefinement(event: Pick<RecordedEvent, 'createdAt' | 'metadata'>, r: EventRefinement): boolean {
  if (r.since && event.createdAt < r.since) return false;
  if (r.until && event.createdAt > r.until) return false;
  if (r.environment !== undefined && event.metadata.environment !== r.environment) return false;
  return true;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function presentLogEvent(event: RecordedEvent): LogEventT {
  const m = event.metadata;
  return {
    id: event.id,
    type: event.type,
    stream: event.streamId,
    revision: event.revision,
    global_position: event.globalPosition.toString(),
    position: event.position,
    recorded_at: event.createdAt.toISOString(),
    environment: str(m.environment),
    correlation_id: str(m.correlation_id),
    causation_id: str(m.causation_id),
    actor: str(m.actor),
    schema_version: typeof m.schema_version === 'number' ? m.schema_version : null,
    metadata: { ...m },
    data: event.data,
  };
}

/** Every kind of stream the service writes (stream ids are built in libs/domain, `*.streams.ts`). */
export const STREAM_CATEGORIES: readonly StreamCategoryT[] = [
  { category: 'account', pattern: 'account-default', description: 'Service tokens of the account' },
  { category: 'environment', pattern: 'environment-{slug}', description: 'An environment, its API keys, signing keys and security mode' },
  { category: 'user', pattern: 'user-{environment}-{user_id}', description: 'A user: identify, merge, delete, preferences, channel data' },
  {
    category: 'object',
    pattern: 'object-{environment}-{collection}-{object_id}',
    description: 'An object, its preferences, channel data and subscriptions',
  },
  { category: 'tenant', pattern: 'tenant-{environment}-{tenant_id}', description: 'A tenant and its settings' },
  {
    category: 'member',
    pattern: 'member-{address_hash}',
    description: 'A member of the account and its role, keyed by a keyed hash of its address (ADR 0220; member-{email} before)',
  },
  {
    category: 'log_redaction',
    pattern: 'log_redaction-{id}',
    description: 'Streams deleted from the log and why (legacy member-{email} streams, ADR 0240)',
  },
  { category: 'console_login', pattern: 'console_login-{link_id}', description: 'A console login link, used at most once (ADR 0210)' },
  { category: 'audience', pattern: 'audience-{environment}-{audience_key}', description: 'Members of a static audience' },
  { category: 'workflow', pattern: 'workflow-{environment}-{key}', description: 'A workflow version history (changes, commits)' },
  { category: 'partial', pattern: 'partial-{environment}-{key}', description: 'A partial' },
  { category: 'email_layout', pattern: 'email_layout-{environment}-{key}', description: 'An email layout' },
  { category: 'message_type', pattern: 'message_type-{environment}-{key}', description: 'A message type' },
  { category: 'guide', pattern: 'guide-{environment}-{key}', description: 'A guide: its versions, activation and archiving' },
  {
    category: 'guide_engagement',
    pattern: 'guide_engagement-{environment}-{guide_key}-{tenant}-{user_id}',
    description: "A user's engagement generations with a guide (resets)",
  },
  { category: 'audience_definition', pattern: 'audience_definition-{environment}-{key}', description: 'An audience definition' },
  { category: 'translation', pattern: 'translation-{environment}-{identifier}', description: 'A translation' },
  { category: 'commits', pattern: 'commits-{environment}', description: 'Commits and promotions of one environment' },
  { category: 'variable', pattern: 'variable-{key}', description: 'An account variable' },
  { category: 'channel', pattern: 'channel-{key}', description: 'A channel and its per-environment settings' },
  { category: 'channel_group', pattern: 'channel_group-{key}', description: 'A channel group' },
  { category: 'tag', pattern: 'tag-{name}', description: 'A tag of the account catalog' },
  {
    category: 'item_schema',
    pattern: 'item_schema-{environment}-{item_type}[-{collection}]',
    description: 'The item schema of users, tenants or a collection',
  },
  { category: 'workflow_run', pattern: 'workflow_run-{environment}-{workflow_run_id}', description: 'A trigger: who, with what data' },
  {
    category: 'run',
    pattern: 'run-{environment}-{run_id}',
    description: 'One recipient run of a workflow: enqueued, each step decided, finished',
  },
  { category: 'message', pattern: 'message-{environment}-{message_id}', description: 'A message: created, sent, delivered, read, ...' },
  {
    category: 'cancellation',
    pattern: 'cancellation-{environment}-{workflow}-{cancellation_key}',
    description: 'Cancellations of a workflow by key',
  },
  { category: 'frequency', pattern: 'frequency-{environment}-{workflow}-{recipient}-{tenant}', description: 'Run-once/frequency guards' },
  {
    category: 'batch',
    pattern: 'batch-{environment}-{workflow}-{step}-{recipient}-{batch_key}',
    description: 'A batch window and its items',
  },
  {
    category: 'throttle',
    pattern: 'throttle-{environment}-{workflow}-{step}-{recipient}-{throttle_key}',
    description: 'A throttle window',
  },
  { category: 'schedule', pattern: 'schedule-{environment}-{schedule_id}', description: 'A schedule and its occurrences' },
  { category: 'bulk-operation', pattern: 'bulk-operation-{environment}-{id}', description: 'A bulk operation and its progress' },
  { category: 'idempotency', pattern: 'idempotency-{environment}-{key_hash}', description: 'Idempotency keys of requests' },
];

/** Merges several streams' events into log order (commit order, as `$all` reads them). */
export function inLogOrder(events: Iterable<RecordedEvent>): RecordedEvent[] {
  return [...events].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

/** The query of a log read (`GET /v1/events`, `notify events read $all`) as the reader takes it. */
export function logRequest(q: {
  after?: string;
  limit: number;
  types?: string[];
  stream_prefix?: string[];
  since?: string;
  until?: string;
  environment?: string;
}): { after?: LogPosition; limit: number; filter: { eventTypes?: string[]; streamPrefixes?: string[] }; refine: EventRefinement } {
  return {
    after: logPositionOf(q.after),
    limit: q.limit,
    filter: {
      ...(q.types?.length ? { eventTypes: q.types } : {}),
      ...(q.stream_prefix?.length ? { streamPrefixes: q.stream_prefix } : {}),
    },
    refine: {
      ...(q.since ? { since: new Date(q.since) } : {}),
      ...(q.until ? { until: new Date(q.until) } : {}),
      ...(q.environment ? { environment: q.environment } : {}),
    },
  };
}

/** `as_of`: an ISO instant, an event's `position` (32 hex digits), or a global position (digits). */
export type AsOf = { at: Date } | { position: LogPosition } | { globalPosition: bigint };

export function parseAsOf(value: string): AsOf {
  if (LOG_POSITION.test(value)) return { position: value };
  if (/^\d{1,19}$/.test(value)) return { globalPosition: BigInt(value) };
  const at = new Date(value);
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(at.getTime())) return { at };
  throw invalidParams([{ field: 'as_of', message: 'is not an ISO 8601 instant, an event position or a global position', type: 'invalid' }]);
}

/** Whether an event was in the log as of that point. Within one stream global positions grow with revisions. */
export function recordedBy(event: Pick<RecordedEvent, 'createdAt' | 'position' | 'globalPosition'>, asOf: AsOf): boolean {
  if ('at' in asOf) return event.createdAt <= asOf.at;
  if ('position' in asOf) return event.position <= asOf.position;
  return event.globalPosition <= asOf.globalPosition;
}
