import { compileJsonSchema, RecipientRefT, RecipientRequestT, TriggerWorkflowBodyT } from '@notify/contracts';
import { DomainError, FieldError, invalidParams, WorkflowTriggeredData, workflowRunStream } from '@notify/domain';
import { AppendResult, StreamAppend, WrongExpectedRevisionError } from '@notify/eventstore';
import type { InlineRuns } from './inline-runs';
import { randomUUID } from 'node:crypto';
import { eventEnvelope } from '../envelope';
import { CommandMetadata } from '../handle-command';
import { RecipientDeps } from '../recipients/ports';
import { identifyUser } from '../recipients/user-use-cases';
import { setObject } from '../recipients/object-use-cases';
import { setTenant } from '../recipients/tenant-use-cases';
import { canEnqueueWithTrigger, withEnqueuedRuns } from './fanout';
import type { EngineLookups, WorkflowView } from './lookups';

export interface TriggerDeps {
  recipients: RecipientDeps;
  lookups: EngineLookups;
  /** Executes runs that need nothing asynchronous with their trigger (ADR 0258); without it the worker executes every run. */
  inline?: InlineRuns;
  /** When triggers are accepted (`triggered_at`): the process's clock (ADR 0274); the system clock without it. */
  clock?: () => Date;
}

export interface TriggerOptions {
  workflowRunId?: string;
  source?: WorkflowTriggeredData['trigger_source'];
  /** Where configuration stood when the request's key was read (ADR 0217): the workflow may come from a cache of that version. */
  configVersion?: string;
}

const validators = new Map<string, ReturnType<typeof compileJsonSchema>>();

function validateData(version: string, schema: Record<string, unknown>, data: Record<string, unknown>): FieldError[] {
  let validate = validators.get(version);
  if (!validate) {
    validate = compileJsonSchema(schema);
    if (validators.size > 1000) validators.clear();
    validators.set(version, validate);
  }
  const result = validate(data);
  if (result.valid) return [];
  return result.errors.map((e) => {
    const missing = e.keyword === 'required' ? `.${(e.params as { missingProperty: string }).missingProperty}` : '';
    return { field: `data${e.instancePath.replace(/\//g, '.')}${missing}`, message: e.message ?? 'is invalid', type: e.keyword };
  });
}

export const identifiedRef = (r: RecipientRequestT): RecipientRefT =>
  typeof r === 'string'
    ? { type: 'user', id: r }
    : 'collection' in r && typeof r.collection === 'string'
      ? { type: 'object', collection: r.collection, id: r.id }
      : { type: 'user', id: r.id };

/** What a trigger wrote besides the trigger itself (inline identification): reads must show it. */
export interface TriggerWrites {
  appends: { append: AppendResult; events: { type: string }[] }[];
}

/** Inline recipients are identified (users) or set (objects) before the trigger is recorded. */
export async function identifyInline(
  deps: RecipientDeps,
  environment: string,
  request: RecipientRequestT,
  metadata: CommandMetadata,
  writes: TriggerWrites,
): Promise<void> {
  if (typeof request === 'string') return;
  let outcome: { append?: AppendResult; events: { type: string }[] };
  if ('collection' in request && typeof request.collection === 'string') {
    const { id, collection, ...body } = request;
    outcome = await setObject(deps, environment, collection, id, body, metadata);
  } else {
    const { id, ...body } = request as { id: string };
    outcome = await identifyUser(deps, environment, id, body, metadata);
  }
  if (outcome.append) writes.appends.push({ append: outcome.append, events: outcome.events });
}

/** A tenant given inline is set before the trigger (or schedule) is recorded; answers its id. */
export async function identifyInlineTenant(
  deps: RecipientDeps,
  environment: string,
  tenant: TriggerWorkflowBodyT['tenant'],
  metadata: CommandMetadata,
  writes: TriggerWrites,
): Promise<string | null> {
  if (!tenant) return null;
  if (typeof tenant === 'string') return tenant;
  const { id, ...rest } = tenant as { id: string };
  const outcome = await setTenant(deps, environment, id, rest, metadata);
  if (outcome.append) writes.appends.push({ append: outcome.append, events: outcome.events });
  if (outcome.channelData?.append) writes.appends.push({ append: outcome.channelData.append, events: outcome.channelData.events });
  return id;
}

export async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

/**
 * What a trigger must pass before anything is recorded: the workflow exists, is active and
 * valid, the data matches its JSON schema, an actor given by id exists. Throws DomainError.
 * Shared by the trigger endpoint and the trigger_workflow step.
 */
export async function checkTrigger(
  lookups: EngineLookups,
  environment: string,
  workflowKey: string,
  body: Pick<TriggerWorkflowBodyT, 'data' | 'actor'>,
  configVersion?: string,
): Promise<WorkflowView> {
  const workflow = await lookups.workflow(environment, workflowKey, { configVersion });
  if (!workflow) {
    if (await lookups.workflowArchived?.(environment, workflowKey))
      throw new DomainError('workflow_archived', `Workflow ${workflowKey} was archived and cannot be triggered`, 'not_found');
    throw new DomainError('workflow_missing', `No workflow ${workflowKey} exists in this environment`, 'not_found');
  }
  if (!workflow.active || !workflow.valid)
    throw new DomainError('workflow_inactive', `Workflow ${workflowKey} is not active in this environment`, 'invalid_request');
  if (workflow.triggerDataSchema) {
    const errors = validateData(workflow.snapshot.version ?? workflowKey, workflow.triggerDataSchema, body.data ?? {});
    if (errors.length) throw invalidParams(errors, 'The trigger data does not match the workflow trigger data schema');
  }
  if (typeof body.actor === 'string' && !(await lookups.recipient(environment, { type: 'user', id: body.actor }))) {
    throw new DomainError('actor_missing', `The actor ${body.actor} has not been identified`, 'not_found');
  }
  return workflow;
}

/** The recipients of a trigger as references, each once, in the order given. */
export function uniqueRecipientRefs(recipients: readonly RecipientRequestT[]): RecipientRefT[] {
  const seen = new Set<string>();
  return recipients.map(identifiedRef).filter((r) => {
    const key = JSON.stringify(r);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/**
 * Records a trigger: checks the workflow, the data against its schema and the actor, identifies
 * inline recipients, actor and tenant, then appends WorkflowTriggered. Everything after (a run
 * per recipient, its steps, delivery) happens asynchronously in the worker.
 */
export async function triggerWorkflow(
  deps: TriggerDeps,
  environment: string,
  workflowKey: string,
  body: TriggerWorkflowBodyT,
  metadata: CommandMetadata,
  options: TriggerOptions = {},
): Promise<{ workflow_run_id: string; append: AppendResult; writes: TriggerWrites }> {
  const leave = deps.inline?.begin();
  try {
    return await recordTrigger(deps, environment, workflowKey, body, metadata, options);
  } finally {
    leave?.();
  }
}

async function recordTrigger(
  deps: TriggerDeps,
  environment: string,
  workflowKey: string,
  body: TriggerWorkflowBodyT,
  metadata: CommandMetadata,
  options: TriggerOptions,
): Promise<{ workflow_run_id: string; append: AppendResult; writes: TriggerWrites }> {
  const workflow = await checkTrigger(deps.lookups, environment, workflowKey, body, options.configVersion);
  const data = body.data ?? {};

  const writes: TriggerWrites = { appends: [] };
  const inline = [...(body.actor ? [body.actor] : []), ...body.recipients];
  await inBatches(inline, 8, (r) => identifyInline(deps.recipients, environment, r, metadata, writes));
  const tenant = await identifyInlineTenant(deps.recipients, environment, body.tenant, metadata, writes);

  const recipients = uniqueRecipientRefs(body.recipients);
  const workflowRunId = options.workflowRunId ?? randomUUID();
  const triggered: WorkflowTriggeredData = {
    workflow_run_id: workflowRunId,
    workflow: workflow.snapshot,
    actor: body.actor ? identifiedRef(body.actor) : null,
    recipients,
    tenant,
    data,
    cancellation_key: body.cancellation_key ?? null,
    settings: { sandbox_mode: body.settings?.sandbox_mode ?? false, skip_delay: body.settings?.skip_delay ?? false },
    trigger_source: options.source ?? { type: 'api' },
    triggered_at: (deps.clock?.() ?? new Date()).toISOString(),
  };
  const event = eventEnvelope('WorkflowTriggered', triggered, randomUUID(), { ...metadata, environment });
  const stream = workflowRunStream(environment, workflowRunId);
  const store = deps.recipients.store;
  if (store.atomicMultiStreamAppend && canEnqueueWithTrigger(triggered)) {
    // Nothing to read to decide the runs: they are appended with the trigger, in the same
    // atomic append, and the fan-out leaves the trigger alone (ADR 0235, ADR 0255).
    const { trigger, runs } = withEnqueuedRuns(environment, event);
    const appendAll = async (all: StreamAppend[]) => (store.appendTogether ? await store.appendTogether(all) : await store.appendMany(all));
    const own: StreamAppend = { streamId: stream, expectedRevision: 'no_stream', events: [trigger] };
    // Where the runs need nothing asynchronous, their decisions go in the same append (ADR 0258).
    const executed = deps.inline ? await deps.inline.plan(environment, trigger.data, runs) : undefined;
    if (executed) {
      try {
        const [append] = await appendAll([own, ...executed]);
        return { workflow_run_id: workflowRunId, append, writes };
      } catch (error) {
        // A stream a run's plan creates exists after all (a guide's message): the worker decides again.
        if (!(error instanceof WrongExpectedRevisionError) || error.streamId === stream) throw error;
      }
    }
    const [append] = await appendAll([own, ...runs]);
    return { workflow_run_id: workflowRunId, append, writes };
  }
  const append = await store.append(stream, [event], { expectedRevision: 'no_stream' });
  return { workflow_run_id: workflowRunId, append, writes };
}
