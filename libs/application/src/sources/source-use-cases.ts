import { PlannedSourceActionT, SourceMappingT, SourceRequestT, SourceSettingsT, TriggerWorkflowBodyT } from '@notify/contracts';
import {
  DomainError,
  eventTypeOf,
  FieldError,
  firstUserOf,
  idempotencyKeyOf,
  invalidParams,
  liquidTemplatesOf,
  mappingProblems,
  planSourceActions,
  resourceMissing,
  SourceEvent,
  sourceDecider,
  SourceLogEvent,
  sourceLogDecider,
  SourceLogState,
  SourcePayload,
  SourceState,
  sourceLogStream,
  sourceStream,
  valueAt,
} from '@notify/domain';
import { AppendResult, EventStore } from '@notify/eventstore';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';
import { engineId } from '../engine/ids';
import { checkTrigger, triggerWorkflow, TriggerDeps } from '../engine/trigger';
import { TemplateProblem } from '../config/template-checker';
import { convertForGoalEvent, GoalLookups } from '../goals/goal-use-cases';

/*
 * Inbound event sources (ADR 0195): their configuration per environment, the events posted to
 * their ingest endpoint (recorded first, then mapped to workflow triggers through the same use
 * case as the trigger endpoint), and rehearsals that evaluate a payload and write nothing.
 */

/** Liquid for mapping parameters: checked when a mapping is saved, rendered against `{ body, headers }`. */
export interface SourceTemplates {
  check(source: string): TemplateProblem[];
  render(source: string, payload: SourcePayload): Promise<string>;
}

/** What a source needs of its stored configuration in one environment. */
export interface SourceConfig {
  key: string;
  settings: SourceSettingsT;
  mappings: SourceMappingT[];
}

const now = () => new Date().toISOString();

const DEFAULT_SETTINGS: SourceSettingsT = {
  enforce_verification: true,
  event_type_path: 'body.event',
  idempotency_key_path: null,
  timestamp_path: null,
  preprocess_script: null,
};

/**
 * The key an ingest request must present for a source in an environment: derived from the
 * service's secret (a subkey of SECRETS_KEY), so it is never stored, in the log or elsewhere.
 */
export function sourceIngestKey(secret: Buffer, environment: string, key: string): string {
  return `src_${createHmac('sha256', secret).update(`${environment}\u0000${key}`).digest('base64url')}`;
}

function sameKey(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface UpsertSourceDeps {
  store: EventStore;
  templates: SourceTemplates;
  /** The source as stored in this environment, for settings a request leaves out. */
  existing(): Promise<{ settings: SourceSettingsT; mappings: SourceMappingT[] } | undefined>;
}

/**
 * Saves a source's name and its settings and mappings in `environment`. Settings of another
 * environment are refused (each environment is written with its own `?environment=`); a mapping
 * that is malformed or holds invalid Liquid is refused with its fields, and nothing is written.
 */
export async function upsertSource(
  deps: UpsertSourceDeps,
  environment: string,
  key: string,
  request: SourceRequestT,
  metadata: CommandMetadata,
): Promise<CommandOutcome<SourceState, SourceEvent>> {
  const all = request.environment_settings ?? {};
  const errors: FieldError[] = Object.keys(all)
    .filter((env) => env !== environment)
    .map((env) => ({
      field: `source.environment_settings.${env}`,
      message: `settings of ${env} are written with environment=${env}; this request writes ${environment}`,
      type: 'environment',
    }));
  const mine = all[environment];
  const prefix = `source.environment_settings.${environment}.mappings`;
  const mappings = (mine?.mappings ?? []).map((m) => ({
    event_type: m.event_type,
    action_type: m.action_type,
    action_parameters: m.action_parameters ?? null,
    active: m.active ?? true,
    is_deleted: m.is_deleted ?? false,
  }));
  errors.push(...mappingProblems(mappings, prefix));
  mappings.forEach((m, i) => {
    for (const template of liquidTemplatesOf(m.action_parameters))
      for (const problem of deps.templates.check(template))
        errors.push({
          field: `${prefix}.${i}.action_parameters`,
          message: `${problem.line ? `line ${problem.line}: ` : ''}${problem.message}`,
          type: 'template',
        });
  });
  if (errors.length) throw invalidParams(errors, 'The source is not valid');

  const existing = await deps.existing();
  const stored = existing?.settings ?? DEFAULT_SETTINGS;
  const given = mine?.settings ?? {};
  const settings: SourceSettingsT = {
    ...stored,
    ...given,
    enforce_verification: given.enforce_verification ?? stored.enforce_verification,
    event_type_path: given.event_type_path === undefined ? stored.event_type_path : given.event_type_path,
    idempotency_key_path: given.idempotency_key_path === undefined ? stored.idempotency_key_path : given.idempotency_key_path,
    timestamp_path: given.timestamp_path === undefined ? stored.timestamp_path : given.timestamp_path,
    preprocess_script: given.preprocess_script === undefined ? stored.preprocess_script : given.preprocess_script,
  };
  // Read-only echoes of a GET are not settings.
  delete (settings as Record<string, unknown>).endpoint;
  delete (settings as Record<string, unknown>).ingest_key;
  return handleCommand(
    deps.store,
    sourceStream(environment, key),
    sourceDecider,
    {
      type: 'UpsertSource',
      key,
      name: request.name,
      custom_image_url: request.custom_image_url ?? null,
      settings,
      // Settings given without mappings keep the stored mappings (the decider keeps their dates).
      mappings: mine?.mappings ? mappings : (existing?.mappings ?? []).map(({ created_at: _c, updated_at: _u, ...m }) => m),
      now: now(),
    },
    metadata,
  );
}

/** The event type, idempotency key and planned actions of a payload; Liquid rendered, nothing written. */
export async function planSourceEvent(
  templates: SourceTemplates,
  source: SourceConfig,
  payload: SourcePayload,
  logId: string,
): Promise<{ event: string | null; idempotencyKey: string | null; actions: PlannedSourceActionT[] }> {
  const event = eventTypeOf(source.settings, payload);
  const idempotencyKey = idempotencyKeyOf(source.settings, payload);
  if (event === null) return { event, idempotencyKey, actions: [] };
  const wanted = source.mappings.filter((m) => m.active && !m.is_deleted && m.event_type === event);
  const rendered = new Map<string, string>();
  for (const template of wanted.flatMap((m) => liquidTemplatesOf(m.action_parameters)))
    if (!rendered.has(template)) rendered.set(template, await templates.render(template, payload));
  const actions = planSourceActions({
    mappings: source.mappings,
    eventType: event,
    payload,
    render: (t) => rendered.get(t) ?? '',
    actionId: (index) => engineId('source-action', logId, index),
  });
  return { event, idempotencyKey, actions };
}

export interface IngestDeps {
  store: EventStore;
  templates: SourceTemplates;
  trigger: TriggerDeps;
  /** The subkey ingest keys are derived from. */
  ingestSecret: Buffer;
  source(environment: string, key: string): Promise<SourceConfig | undefined>;
  /** Goals the event may meet (ADR 0196); without it, events convert nothing. */
  goals?: GoalLookups;
}

export interface IngestResult {
  log_id: string;
  status: 'accepted' | 'duplicate';
  outcome: CommandOutcome<SourceLogState, SourceLogEvent>;
  triggers: { workflow_run_id: string }[];
  /** Conversions the event caused, for read-your-writes. */
  conversions: { append: AppendResult; events: { type: string }[] }[];
}

/**
 * An event posted to a source's ingest endpoint. The key is checked before anything is read;
 * the event is then recorded (SourceEventReceived: the payload and the actions planned from it),
 * each action is run through the trigger use case with a run id derived from the action, and
 * what each did is recorded (SourceActionsRan). A repeat of an idempotency key is the same log
 * and runs nothing again.
 */
export async function ingestSourceEvent(
  deps: IngestDeps,
  environment: string,
  key: string,
  presentedKey: string | null,
  payload: SourcePayload,
  metadata: CommandMetadata,
): Promise<IngestResult> {
  if (!presentedKey || !sameKey(presentedKey, sourceIngestKey(deps.ingestSecret, environment, key)))
    throw new DomainError(
      'source_key_invalid',
      'The request must carry the source\'s ingest key as "Authorization: Bearer <key>"',
      'unauthenticated',
    );
  const source = await deps.source(environment, key);
  if (!source) throw resourceMissing('source');

  const keyed = idempotencyKeyOf(source.settings, payload);
  const logId = keyed === null ? randomUUID() : engineId('source-log', environment, key, keyed);
  return recordAndRun(deps, environment, source, payload, logId, metadata);
}

/**
 * Records the event on its log stream with the actions planned from today's mappings, runs each
 * trigger, records the results and, for a first reception, converts the goals it meets.
 */
async function recordAndRun(
  deps: Omit<IngestDeps, 'ingestSecret'>,
  environment: string,
  source: SourceConfig,
  payload: SourcePayload,
  logId: string,
  metadata: CommandMetadata,
  replayOf?: string,
): Promise<IngestResult> {
  const key = source.key;
  const plan = await planSourceEvent(deps.templates, source, payload, logId);
  if (plan.event === null) {
    throw invalidParams([
      { field: source.settings.event_type_path ?? 'body.event', message: 'the event has no event type at this path', type: 'required' },
    ]);
  }
  const stream = sourceLogStream(environment, logId);
  const receivedAt = now();
  const received = await handleCommand(
    deps.store,
    stream,
    sourceLogDecider,
    {
      type: 'RecordSourceEvent',
      logId,
      sourceKey: key,
      event: plan.event,
      idempotencyKey: plan.idempotencyKey,
      payload,
      actions: plan.actions,
      subject: firstUserOf(plan.actions),
      now: receivedAt,
      ...(replayOf ? { replayOf } : {}),
    },
    metadata,
  );
  if (received.events.length === 0 && received.state.ran)
    return { log_id: logId, status: 'duplicate', outcome: received, triggers: [], conversions: [] };

  const results: { id: string; status: 'ok' | 'error'; result: Record<string, unknown> | null }[] = [];
  const triggers: { workflow_run_id: string }[] = [];
  for (const action of plan.actions) {
    if (action.errors.length) {
      results.push({ id: action.id, status: 'error', result: { errors: action.errors } });
      continue;
    }
    const { workflow, ...body } = action.action_payload as { workflow: string } & TriggerWorkflowBodyT;
    try {
      const triggered = await triggerWorkflow(deps.trigger, environment, workflow, body, metadata, {
        workflowRunId: action.id,
        source: { type: 'source', source_key: key, source_log_id: logId },
      });
      triggers.push({ workflow_run_id: triggered.workflow_run_id });
      results.push({ id: action.id, status: 'ok', result: { workflow_run_id: triggered.workflow_run_id } });
    } catch (error) {
      if (error instanceof DomainError) {
        results.push({ id: action.id, status: 'error', result: { code: error.code, message: error.message, errors: error.fields } });
      } else if (isAlreadyTriggered(error)) {
        // A retry after a crash between the trigger and its result: the trigger is already recorded.
        results.push({ id: action.id, status: 'ok', result: { workflow_run_id: action.id } });
      } else throw error;
    }
  }
  const ran = await handleCommand(
    deps.store,
    stream,
    sourceLogDecider,
    { type: 'RecordActionResults', logId, sourceKey: key, results, now: now() },
    metadata,
  );
  // The goal event's user: the one at the source's `recipient_path` (default body.user_id), else the first the actions address.
  const at = valueAt(payload, typeof source.settings.recipient_path === 'string' ? source.settings.recipient_path : 'body.user_id');
  const userId = typeof at === 'string' || typeof at === 'number' ? String(at) : firstUserOf(plan.actions);
  // A replay converts nothing: goals met by the event were met when it was first received (ADR 0246).
  const conversions =
    deps.goals && userId && !replayOf
      ? await convertForGoalEvent(
          deps.store,
          deps.goals,
          environment,
          { type: 'source_event', source_key: key, event: plan.event, log_id: logId, at: receivedAt },
          userId,
          metadata,
        )
      : [];
  return { log_id: logId, status: received.events.length ? 'accepted' : 'duplicate', outcome: ran, triggers, conversions };
}

/**
 * Runs a recorded event again (ADR 0246): its payload, read from the log (so an erased subject's
 * event cannot be replayed), through the source's current settings and mappings, as a new log
 * that names the one it replays. Each replay is its own log with its own runs; goals are not
 * met again.
 */
export async function replaySourceEvent(
  deps: Omit<IngestDeps, 'ingestSecret'>,
  environment: string,
  key: string,
  logId: string,
  metadata: CommandMetadata,
): Promise<IngestResult & { replay_of: string }> {
  const source = await deps.source(environment, key);
  if (!source) throw resourceMissing('source');
  const recorded = (await deps.store.readStream(sourceLogStream(environment, logId))).find((e) => e.type === 'SourceEventReceived');
  const data = recorded?.data as { source_key?: string; payload?: unknown } | undefined;
  if (!data || data.source_key !== key) throw resourceMissing('source log');
  const payload = data.payload as SourcePayload & { $erased?: boolean };
  if (!payload || payload.$erased)
    throw new DomainError('source_event_erased', 'The personal data of this event was erased, so it cannot be replayed', 'conflict');
  const result = await recordAndRun(deps, environment, source, payload, randomUUID(), metadata, logId);
  return { ...result, replay_of: logId };
}

const isAlreadyTriggered = (error: unknown) => (error as { name?: string })?.name === 'WrongExpectedRevisionError';

export interface RehearsalResult {
  status: 'ok' | 'error';
  errors: { field: string; message: string }[];
  actions: (PlannedSourceActionT & { status: 'ok' | 'error' })[];
}

/**
 * A payload through the source's settings and mappings, and each planned trigger through the
 * trigger's checks (workflow active, data schema, actor): nothing is written.
 */
export async function rehearseSource(
  deps: Pick<IngestDeps, 'templates' | 'trigger'>,
  environment: string,
  source: SourceConfig,
  payload: SourcePayload,
): Promise<RehearsalResult> {
  const plan = await planSourceEvent(deps.templates, source, payload, randomUUID());
  const errors: { field: string; message: string }[] = [];
  if (plan.event === null)
    errors.push({ field: source.settings.event_type_path ?? 'body.event', message: 'the event has no event type at this path' });
  const actions: RehearsalResult['actions'] = [];
  for (const action of plan.actions) {
    const problems = [...action.errors];
    if (!problems.length) {
      const { workflow, ...body } = action.action_payload as { workflow: string } & TriggerWorkflowBodyT;
      try {
        await checkTrigger(deps.trigger.lookups, environment, workflow, body);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        problems.push({ field: 'workflow', message: error.message }, ...error.fields.map((f) => ({ field: f.field, message: f.message })));
      }
    }
    errors.push(...problems.map((p) => ({ field: `mappings.${action.mapping_index}.${p.field}`, message: p.message })));
    actions.push({ ...action, errors: problems, status: problems.length ? 'error' : 'ok' });
  }
  return { status: errors.length ? 'error' : 'ok', errors, actions };
}
