import { z } from 'zod';
import { EnvironmentSlug } from '../events/environment.events';
import { defineRoute } from '../http/route';
import { arrayParam, Cursor, queryInt } from '../http/pagination';
import { QueryFlag } from './mgmt';
import { DecisionInputs } from '../runs/run.events';
import { eventContracts } from '../events/registry';

/**
 * The event log as auditors read it (management API, service token): stream categories, one
 * stream, the whole log with filters, and everything that happened to one recipient.
 */

/** One event of the log with everything it was recorded with. */
export const LogEvent = z
  .object({
    id: z.string(),
    type: z.string(),
    stream: z.string(),
    /** 0-based revision inside its stream. */
    revision: z.number().int(),
    /** Monotonic number of the event in the whole log (as a string: it is a 64-bit integer). */
    global_position: z.string(),
    /** Opaque position in commit order; `after` of a log read takes it. */
    position: z.string(),
    recorded_at: z.string(),
    environment: z.string().nullable(),
    correlation_id: z.string().nullable(),
    causation_id: z.string().nullable(),
    actor: z.string().nullable(),
    schema_version: z.number().int().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    data: z.unknown(),
  })
  .meta({ id: 'LogEvent' });
export type LogEventT = z.infer<typeof LogEvent>;

const LogPageInfo = z
  .object({
    /** Pass as `after` for the next page; null when the end was reached (a stream read) . */
    after: z.string().nullable(),
    page_size: z.number().int(),
  })
  .meta({ id: 'LogPageInfo' });

export const LogEventPage = z.object({ entries: z.array(LogEvent), page_info: LogPageInfo }).meta({ id: 'LogEventPage' });
export type LogEventPageT = z.infer<typeof LogEventPage>;

export const StreamCategory = z
  .object({
    category: z.string(),
    /** Stream id pattern: `user-{environment}-{user_id}`. */
    pattern: z.string(),
    description: z.string(),
  })
  .meta({ id: 'StreamCategory' });
export type StreamCategoryT = z.infer<typeof StreamCategory>;

export const listStreamCategoriesRoute = defineRoute({
  operationId: 'listStreamCategories',
  method: 'GET',
  path: '/v1/events/categories',
  summary: 'List the categories of event streams and how their stream ids are formed',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  response: z.object({ entries: z.array(StreamCategory) }).meta({ id: 'ListStreamCategoriesResponse' }),
});

export const EventTypeInfo = z.object({ type: z.string(), schema_version: z.number().int() }).meta({ id: 'EventTypeInfo' });

export const listEventTypesRoute = defineRoute({
  operationId: 'listEventTypes',
  method: 'GET',
  path: '/v1/events/types',
  summary: 'List the event types the service writes, with their current schema version',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  response: z.object({ entries: z.array(EventTypeInfo) }).meta({ id: 'ListEventTypesResponse' }),
});

const Limit = queryInt(z.number().int().min(1).max(500)).default(100);

export const readStreamRoute = defineRoute({
  operationId: 'readEventStream',
  method: 'GET',
  path: '/v1/events/streams/{stream_id}',
  summary: 'Read one stream forwards or backwards from a revision',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  params: z.strictObject({ stream_id: z.string().min(1).max(1024) }),
  query: z.object({
    direction: z.enum(['forwards', 'backwards']).default('forwards'),
    /** Inclusive; the start (forwards) or the end (backwards) when absent. */
    from_revision: queryInt(z.number().int().min(0)).optional(),
    after: Cursor.optional(),
    limit: Limit,
  }),
  response: LogEventPage,
});

const Instant = z.iso.datetime({ offset: true });

const ReadLogFields = z.object({
  /** A cursor from page_info.after, or the `position` of an event: read what follows it. */
  after: z.string().max(1024).optional(),
  limit: Limit,
  types: arrayParam(z.string().min(1).max(200)).optional(),
  stream_prefix: arrayParam(z.string().min(1).max(1024)).optional(),
  since: Instant.optional(),
  until: Instant.optional(),
  /** Only events recorded in this environment (account-level events have none). */
  environment: EnvironmentSlug.optional(),
});

/** A filter naming a type the service never writes would match nothing, silently: it is refused, naming `types`. */
function checkTypes(q: { types?: string[] }, ctx: z.RefinementCtx): void {
  const unknown = (q.types ?? []).filter((t) => !eventContracts.has(t));
  if (unknown.length)
    ctx.addIssue({
      code: 'custom',
      path: ['types'],
      message: `${unknown.map((t) => JSON.stringify(t)).join(', ')} ${unknown.length === 1 ? 'is not an event type' : 'are not event types'} (GET /v1/events/types lists them)`,
    });
}

const ReadLogQuery = ReadLogFields.superRefine((q, ctx) => {
  checkTypes(q, ctx);
  if (q.since !== undefined && q.until !== undefined && Date.parse(q.since) > Date.parse(q.until))
    ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before since' });
});

export const readLogRoute = defineRoute({
  operationId: 'readEventLog',
  method: 'GET',
  path: '/v1/events',
  summary: 'Read the whole log ($all) in commit order, filtered',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  query: ReadLogQuery,
  response: LogEventPage,
});

/**
 * The live tail of `$all` (ADR 0211): a server-sent event stream. Each `events` message carries
 * a page of new events (the read's shape, its cursor included) as soon as they are committed; a
 * comment every 15 s keeps proxies from closing an idle stream. Without `after` it starts at the
 * head. The console's live tail; it falls back to polling readEventLog.
 */
export const tailLogRoute = defineRoute({
  operationId: 'tailEventLog',
  method: 'GET',
  path: '/v1/events/tail',
  summary: 'Follow the whole log ($all) as server-sent events, filtered as a log read',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  query: ReadLogFields.omit({ until: true }).superRefine(checkTypes),
  response: LogEventPage,
  produces: 'text/event-stream',
});

export const userHistoryRoute = defineRoute({
  operationId: 'readUserHistory',
  method: 'GET',
  path: '/v1/events/users/{user_id}',
  summary: 'Everything that happened to one user across streams (the user, its runs and messages), in log order',
  tags: ['Event log'],
  auth: 'service',
  rateTier: 4,
  params: z.strictObject({ user_id: z.string().min(1).max(255) }),
  query: z.object({ environment: z.string(), after: Cursor.optional(), limit: Limit }),
  response: LogEventPage,
});

export const EraseUserBody = z
  .strictObject({
    /** Why (a request's reference, a legal basis): recorded on the `UserErased` event. */
    reason: z.string().trim().min(1).max(1000),
  })
  .meta({ id: 'EraseUserRequest' });

export const UserErasure = z
  .object({
    user_id: z.string(),
    environment: z.string(),
    reason: z.string(),
    erased_at: z.string(),
    /** Whether the user still existed: a `UserDeleted` was recorded before the `UserErased`. */
    deleted: z.boolean(),
    /** The types of the events recorded, in order. */
    events: z.array(z.string()),
    /** The `UserErased` event's place in the log (a log read's `after`, its global position). */
    position: z.string(),
    global_position: z.string(),
  })
  .meta({ id: 'UserErasure' });
export type UserErasureT = z.infer<typeof UserErasure>;

export const eraseUserRoute = defineRoute({
  operationId: 'eraseUser',
  method: 'POST',
  path: '/v1/events/users/{user_id}/erase',
  summary:
    "Delete a user and erase their personal data (the right to be forgotten), recording the reason: the user's key is destroyed and the read models drop their data",
  tags: ['Event log'],
  auth: 'service',
  access: 'admin',
  rateTier: 2,
  params: z.strictObject({ user_id: z.string().min(1).max(255) }),
  query: z.object({ environment: z.string() }),
  body: EraseUserBody,
  response: UserErasure,
});

export const objectHistoryRoute = defineRoute({
  operationId: 'readObjectHistory',
  method: 'GET',
  path: '/v1/events/objects/{collection}/{object_id}',
  summary: 'Everything that happened to one object across streams (the object, its runs and messages), in log order',
  tags: ['Event log'],
  auth: 'service',
  rateTier: 4,
  params: z.strictObject({ collection: z.string().min(1).max(255), object_id: z.string().min(1).max(255) }),
  query: z.object({ environment: z.string(), after: Cursor.optional(), limit: Limit }),
  response: LogEventPage,
});

export const logHeadRoute = defineRoute({
  operationId: 'readEventLogHead',
  method: 'GET',
  path: '/v1/events/head',
  summary: 'The position of the newest event readable in the log: a tail starts after it',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  response: z.object({ position: z.string(), after: z.string() }).meta({ id: 'EventLogHead' }),
});

export const ChainFinding = z
  .object({
    kind: z.enum(['edited', 'missing', 'missing_tail', 'stream_gone', 'unchained']),
    stream: z.string(),
    revision: z.number().int(),
    global_position: z.string().nullable(),
    detail: z.string(),
  })
  .meta({ id: 'ChainFinding' });

export const ChainReport = z
  .object({
    /** True when nothing was found. */
    ok: z.boolean(),
    checked_events: z.number().int(),
    streams: z.number().int(),
    /** Events written before the chain existed: not covered. */
    unchained_events: z.number().int(),
    /** sha256 over every stream's head: keep it outside the database to notice a rewrite of the whole log. */
    root: z.string(),
    findings: z.array(ChainFinding),
    /** Whether the stream heads were recorded for the next verification (only when ok). */
    checkpointed: z.boolean(),
  })
  .meta({ id: 'ChainReport' });
export type ChainReportT = z.infer<typeof ChainReport>;

export const verifyLogRoute = defineRoute({
  operationId: 'verifyEventLog',
  method: 'POST',
  path: '/v1/events/verify',
  summary: "Verify the log's hash chain: names every edited or deleted event (PostgreSQL store)",
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 5,
  query: z.object({ checkpoint: QueryFlag.optional() }),
  response: ChainReport,
});

/** A decision's inputs as recorded (ADR 0219), or `{"$erased": true}` once the recipient was erased. */
const ExplainedInputs = z.union([DecisionInputs, z.object({ $erased: z.literal(true) })]);
export type ExplainedInputsT = z.infer<typeof ExplainedInputs>;

const ExplainedStep = z.object({
  step_ref: z.string(),
  step_type: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  output: z.record(z.string(), z.unknown()).nullable(),
  attempt: z.number().int().nullable(),
  at: z.string(),
  /** What the step decided from: its conditions with their values, each branch's, the preference layers; null on events recorded before. */
  inputs: ExplainedInputs.nullable(),
});

const ExplainedMessage = z.object({
  message_id: z.string(),
  channel: z.unknown(),
  step_ref: z.string().nullable(),
  status: z.enum(['sent', 'delivered', 'not_sent', 'undelivered', 'bounced', 'pending']),
  reason: z.string().nullable(),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      outcome: z.string(),
      reason: z.string().nullable(),
      provider: z.string(),
      provider_message_id: z.string().nullable(),
      /** What the provider answered each request of the attempt (from its delivery logs), or `erased` with the recipient. */
      responses: z.union([
        z.array(z.object({ status: z.number().int().nullable(), error: z.string().nullable(), duration_ms: z.number().nullable() })),
        z.literal('erased'),
      ]),
    }),
  ),
});

/** A pause of the run: what set it (its timer's due time, the window) and the step's inputs so far (ADR 0239). */
const ExplainedPause = z.object({
  step_ref: z.string(),
  reason: z.string(),
  resume_at: z.string().nullable(),
  at: z.string(),
  inputs: ExplainedInputs.nullable(),
});

/** Why a run sent (or did not send) its messages, folded from the log. */
export const RunExplanation = z
  .object({
    run_id: z.string().nullable(),
    workflow_run_id: z.string().nullable(),
    workflow: z.string().nullable(),
    recipient: z.unknown(),
    verdict: z.enum(['sent', 'not_sent', 'cancelled', 'running']),
    reason: z.string().nullable(),
    trigger: z
      .object({
        at: z.string(),
        source: z.unknown(),
        actor: z.unknown(),
        tenant: z.unknown(),
        data: z.unknown(),
        correlation_id: z.string().nullable(),
      })
      .nullable(),
    /** The run was halted by the workflow's own conditions: each of them as evaluated. */
    workflow_conditions: ExplainedInputs.nullable(),
    steps: z.array(ExplainedStep),
    pauses: z.array(ExplainedPause),
    messages: z.array(ExplainedMessage),
    timeline: z.array(
      z.object({
        at: z.string(),
        global_position: z.string(),
        stream: z.string(),
        type: z.string(),
        text: z.string(),
        /** The decision's inputs, one line each (conditions compared, the preference layer that decided). */
        details: z.array(z.string()),
      }),
    ),
    /** The same timeline as text, one event a line. */
    text: z.string(),
  })
  .meta({ id: 'RunExplanation' });
export type RunExplanationT = z.infer<typeof RunExplanation>;

export const explainRunRoute = defineRoute({
  operationId: 'explainWorkflowRecipientRun',
  method: 'GET',
  path: '/v1/workflow_recipient_runs/{id}/explain',
  summary: 'Why a recipient run sent or did not send: the trigger, each step decision, each message, from the event log',
  tags: ['Event log'],
  auth: 'secret',
  rateTier: 4,
  params: z.object({ id: z.string().min(1).max(64) }),
  response: RunExplanation,
});

export const explainMessageRoute = defineRoute({
  operationId: 'explainMessage',
  method: 'GET',
  path: '/v1/messages/{message_id}/explain',
  summary: "Why a message was or was not sent: its run's explanation, from the event log",
  tags: ['Event log'],
  auth: 'secret',
  rateTier: 4,
  params: z.object({ message_id: z.string().min(1).max(64) }),
  response: RunExplanation,
});

/** Where a state as of a point was read: the stream's last event at that point. */
const ReadAt = {
  as_of: z.string(),
  /** The stream's last event at that point: where the state was read (null: the stream had none). */
  revision: z.number().int().nullable(),
  global_position: z.string().nullable(),
  position: z.string().nullable(),
  recorded_at: z.string().nullable(),
};

/** Preference sets by id (`default`, a tenant's id...), as the recipient had them. */
const PreferenceSets = z.record(z.string(), z.unknown()).nullable();

export const UserAsOf = z
  .object({
    id: z.string(),
    /** Whether the user existed then (identified and not deleted). */
    exists: z.boolean(),
    properties: z.record(z.string(), z.unknown()).nullable(),
    preferences: PreferenceSets,
    ...ReadAt,
  })
  .meta({ id: 'UserAsOf' });

export const ObjectAsOf = z
  .object({
    id: z.string(),
    collection: z.string(),
    exists: z.boolean(),
    properties: z.record(z.string(), z.unknown()).nullable(),
    preferences: PreferenceSets,
    ...ReadAt,
  })
  .meta({ id: 'ObjectAsOf' });

export const TenantAsOf = z
  .object({
    id: z.string(),
    exists: z.boolean(),
    properties: z.record(z.string(), z.unknown()).nullable(),
    /** Branding and the tenant's default preference set. */
    settings: z.record(z.string(), z.unknown()).nullable(),
    ...ReadAt,
  })
  .meta({ id: 'TenantAsOf' });

export const WorkflowAsOf = z
  .object({
    key: z.string(),
    exists: z.boolean(),
    active: z.boolean(),
    /** The version triggers ran then: the latest saved one, or the one promoted into the environment. */
    version: z
      .object({
        sha: z.string(),
        valid: z.boolean(),
        content: z.record(z.string(), z.unknown()),
        saved_at: z.string(),
        source: z.enum(['saved', 'promoted']),
      })
      .nullable(),
    /** The last commit of the workflow in the environment then. */
    committed: z.object({ sha: z.string(), commit_id: z.string(), committed_at: z.string() }).nullable(),
    as_of: z.string(),
    /** The last event (of the workflow's stream or the environment's commit log) the state was read at. */
    global_position: z.string().nullable(),
    position: z.string().nullable(),
    recorded_at: z.string().nullable(),
  })
  .meta({ id: 'WorkflowAsOf' });

export const MessageAsOf = z
  .object({
    id: z.string(),
    /** Whether the message had been created then. */
    exists: z.boolean(),
    /** Delivery status then (`queued`, `sent`, `delivered`, `delivery_attempted`, `undelivered`, `not_sent`, `bounced`). */
    status: z.string().nullable(),
    seen_at: z.string().nullable(),
    read_at: z.string().nullable(),
    archived_at: z.string().nullable(),
    interacted_at: z.string().nullable(),
    link_clicked_at: z.string().nullable(),
    /** Delivery attempts started and completed then. */
    attempts: z.object({ started: z.number().int(), completed: z.number().int() }),
    /** What the message was created with (unchanged afterwards); null before it existed. */
    channel: z.unknown(),
    recipient: z.unknown(),
    workflow: z.unknown(),
    tenant: z.string().nullable(),
    workflow_recipient_run_id: z.string().nullable(),
    /** The batch activities it was created with (personal data: `{"$erased": true}` once erased). */
    activities: z.array(z.unknown()).nullable(),
    total_activities: z.number().int().nullable(),
    data: z.unknown(),
    /** The message's own events up to that point, oldest first. */
    events: z.array(LogEvent),
    ...ReadAt,
  })
  .meta({ id: 'MessageAsOf' });

const AsOfQuery = z.object({ environment: z.string(), as_of: z.string().min(1).max(64) });

export const messageAsOfRoute = defineRoute({
  operationId: 'readMessageAsOf',
  method: 'GET',
  path: '/v1/events/messages/{message_id}/state',
  summary: "A message's delivery and engagement status, and its events, as the log had them at a time or position (as_of)",
  tags: ['Event log'],
  auth: 'service',
  rateTier: 4,
  params: z.strictObject({ message_id: z.string().min(1).max(64) }),
  query: AsOfQuery,
  response: MessageAsOf,
});

export const userAsOfRoute = defineRoute({
  operationId: 'readUserAsOf',
  method: 'GET',
  path: '/v1/events/users/{user_id}/state',
  summary: "A user's properties and preferences as the log had them at a time or position (as_of)",
  tags: ['Event log'],
  auth: 'service',
  rateTier: 4,
  params: z.strictObject({ user_id: z.string().min(1).max(255) }),
  query: AsOfQuery,
  response: UserAsOf,
});

export const objectAsOfRoute = defineRoute({
  operationId: 'readObjectAsOf',
  method: 'GET',
  path: '/v1/events/objects/{collection}/{object_id}/state',
  summary: "An object's properties and preferences as the log had them at a time or position (as_of)",
  tags: ['Event log'],
  auth: 'service',
  rateTier: 4,
  params: z.strictObject({ collection: z.string().min(1).max(255), object_id: z.string().min(1).max(255) }),
  query: AsOfQuery,
  response: ObjectAsOf,
});

export const workflowAsOfRoute = defineRoute({
  operationId: 'readWorkflowAsOf',
  method: 'GET',
  path: '/v1/events/workflows/{key}/state',
  summary: 'Which version of a workflow an environment served, and whether it was active, at a time or position (as_of)',
  tags: ['Event log'],
  auth: 'service',
  rateTier: 4,
  params: z.strictObject({ key: z.string().min(1).max(255) }),
  query: AsOfQuery,
  response: WorkflowAsOf,
});

export const tenantAsOfRoute = defineRoute({
  operationId: 'readTenantAsOf',
  method: 'GET',
  path: '/v1/events/tenants/{tenant_id}/state',
  summary: "A tenant's properties and settings as the log had them at a time or position (as_of)",
  tags: ['Event log'],
  auth: 'service',
  rateTier: 4,
  params: z.strictObject({ tenant_id: z.string().min(1).max(255) }),
  query: AsOfQuery,
  response: TenantAsOf,
});

const GlobalPositionParam = z.string().regex(/^\d{1,19}$/, 'is not a global position (a decimal integer)');

const LogPositionParam = z.string().regex(/^[0-9a-f]{32}$/, 'is not an event position (the `position` a log read shows)');

export const ReplayToKafkaResult = z
  .object({
    /** One id per call, in the `replay-id` header of every record it published. */
    replay_id: z.uuid(),
    events: z.number().int(),
    records: z.number().int(),
    /** Position of the last event re-published; null when the range held none. */
    last_position: z.string().nullable(),
    /** Pass as `from` to go on when the range was longer than `limit`; null when it is done. */
    next_from: z.string().nullable(),
  })
  .meta({ id: 'ReplayToKafkaResult' });
export type ReplayToKafkaResultT = z.infer<typeof ReplayToKafkaResult>;

export const replayToKafkaRoute = defineRoute({
  operationId: 'replayEventsToKafka',
  method: 'POST',
  path: '/v1/events/replay_to_kafka',
  summary: 'Re-publish a range of the log to the Kafka stream topics as the relay did, marked as replayed',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 5,
  body: z
    .strictObject({
      /** First and last event by `position` (commit order), both included; with a range below they narrow it (`next_from` goes on). */
      from: LogPositionParam.optional(),
      to: LogPositionParam.optional(),
      /** Or the events whose global position is in this range, both included. */
      from_global_position: GlobalPositionParam.optional(),
      to_global_position: GlobalPositionParam.optional(),
      /** Or the events recorded in this time range, both included. */
      since: Instant.optional(),
      until: Instant.optional(),
      limit: z.number().int().min(1).max(100_000).default(10_000),
    })
    .superRefine((b, ctx) => {
      const pair = (a: unknown, z2: unknown, first: string, second: string) => {
        if ((a === undefined) !== (z2 === undefined))
          ctx.addIssue({
            code: 'custom',
            path: [a === undefined ? first : second],
            message: `is required with ${a === undefined ? second : first}`,
          });
        return a !== undefined && z2 !== undefined;
      };
      const byGlobal = pair(b.from_global_position, b.to_global_position, 'from_global_position', 'to_global_position');
      const byTime = pair(b.since, b.until, 'since', 'until');
      const ranged = [b.from_global_position, b.to_global_position, b.since, b.until].some((v) => v !== undefined);
      if (!ranged) {
        if (b.from === undefined)
          ctx.addIssue({ code: 'custom', path: ['from'], message: 'is required (or a global position or time range)' });
        if (b.to === undefined) ctx.addIssue({ code: 'custom', path: ['to'], message: 'is required (or a global position or time range)' });
      }
      if (b.from !== undefined && b.to !== undefined && b.from > b.to)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not come before from' });
      if (byGlobal && BigInt(b.from_global_position!) > BigInt(b.to_global_position!))
        ctx.addIssue({ code: 'custom', path: ['to_global_position'], message: 'must not be below from_global_position' });
      if (byTime && new Date(b.since!) > new Date(b.until!))
        ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before since' });
    })
    .meta({ id: 'ReplayToKafkaRequest' }),
  response: ReplayToKafkaResult,
});

export const LogImportResult = z
  .object({
    /** Events written. */
    events: z.number().int(),
    /** Events of this installation's first start that the import replaced (its bootstrap). */
    replaced_events: z.number().int(),
    /** The global position of the last event imported (as in the export), null when it held none. */
    last_global_position: z.string().nullable(),
    /** Where the imported log ends in this installation: a log read `after` it reads what comes next. */
    position: z.string(),
    /** Users erased in the export whose keys were destroyed here too. */
    erased_subjects: z.number().int(),
    /** Each read model, rebuilt from the imported log. */
    projections: z.array(z.object({ name: z.string(), events: z.number().int(), ms: z.number().int() })),
  })
  .meta({ id: 'LogImportResult' });
export type LogImportResultT = z.infer<typeof LogImportResult>;

export const importLogRoute = defineRoute({
  operationId: 'importEventLog',
  method: 'POST',
  path: '/v1/events/import',
  summary:
    'Import an export (JSON lines, streamed) into an installation whose log holds only its first start, then rebuild every read model',
  tags: ['Event log'],
  auth: 'service',
  scope: 'account',
  rateTier: 5,
  query: z.object({ batch_size: queryInt(z.number().int().min(1).max(5000)).default(500) }),
  streamBody: 'ndjson',
  response: LogImportResult,
});
