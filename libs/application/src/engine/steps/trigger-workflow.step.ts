import { RecipientRefT, RecipientRequestT, TriggerWorkflowBody, TriggerWorkflowBodyT } from '@notify/contracts';
import { engineMetadata, eventEnvelope } from '../../envelope';
import {
  Decider,
  DomainError,
  DomainEvent,
  fold,
  objectDecider,
  objectStream,
  RunEnqueuedData,
  runStream,
  tenantDecider,
  tenantStream,
  userDecider,
  userStream,
  WorkflowTriggeredData,
  workflowRunStream,
} from '@notify/domain';
import { StreamAppend } from '@notify/eventstore';
import { engineId } from '../ids';
import type { StepContext, StepHandler, StepOutcome } from '../step-handler';
import { checkTrigger, uniqueRecipientRefs } from '../trigger';

/** Workflows triggering workflows: deeper chains than this are refused (a loop would never end). */
export const MAX_TRIGGER_DEPTH = 10;

interface TriggerSettings {
  workflow_key: string;
  recipients?: string;
  actor?: string;
  tenant?: string;
  data?: string;
  cancellation_key?: string;
}

type Rendered = { ok: true; value: unknown } | { ok: false; reason: string };

/** The id of the workflow run a trigger_workflow step starts: the same every time the step executes. */
export const triggeredWorkflowRunId = (runId: string, stepRef: string, path: readonly number[]) =>
  engineId('trigger-workflow', runId, stepRef, path.join('.'));

const toRequest = (ref: RecipientRefT): RecipientRequestT => (ref.type === 'user' ? ref.id : { id: ref.id, collection: ref.collection });

/**
 * Triggers another workflow from a run, as the trigger endpoint would (the same checks), for
 * recipients, actor, tenant and data rendered from the step's settings (JSON or Liquid; each
 * defaults to the current run's). The trigger, and the identification of inline recipients,
 * are appended together with the run's progress; the triggered workflow run's id is derived
 * from this run and step, so executing the step again triggers once.
 */
export class TriggerWorkflowStep implements StepHandler {
  readonly type = 'trigger_workflow';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const settings = (ctx.step.settings ?? {}) as unknown as TriggerSettings;
    const run = ctx.state.run!;
    const error = (reason: string): StepOutcome => ({ flow: 'continue', status: 'error', reason: `trigger_workflow: ${reason}` });

    const body = await this.body(ctx, settings);
    if ('error' in body) return error(body.error);
    const depth = await this.depth(ctx);
    if (depth >= MAX_TRIGGER_DEPTH) return error(`workflows triggered by workflows nest at most ${MAX_TRIGGER_DEPTH} deep`);

    let workflow;
    try {
      workflow = await checkTrigger(ctx.deps.lookups, ctx.environment, settings.workflow_key, body);
    } catch (e) {
      if (e instanceof DomainError) return error(`${e.code}: ${e.message}`);
      throw e;
    }

    let identify: StreamAppend[] | { problem: string };
    try {
      identify = await this.identifications(ctx, body);
    } catch (e) {
      if (e instanceof DomainError) return error(`${e.code}: ${e.message}`);
      throw e;
    }
    if ('problem' in identify) return error(identify.problem);

    const workflowRunId = triggeredWorkflowRunId(run.run_id, ctx.step.ref, ctx.path);
    const tenant = body.tenant ? (typeof body.tenant === 'string' ? body.tenant : (body.tenant as { id: string }).id) : null;
    const triggered: WorkflowTriggeredData = {
      workflow_run_id: workflowRunId,
      workflow: workflow.snapshot,
      actor: body.actor ? uniqueRecipientRefs([body.actor])[0] : null,
      recipients: uniqueRecipientRefs(body.recipients),
      tenant,
      data: body.data ?? {},
      cancellation_key: body.cancellation_key ?? null,
      // A test or sandboxed run stays one in the workflows it triggers.
      settings: { sandbox_mode: ctx.trigger.settings.sandbox_mode ?? false, skip_delay: ctx.trigger.settings.skip_delay ?? false },
      trigger_source: { type: 'workflow', workflow_recipient_run_id: run.run_id },
      triggered_at: ctx.now.toISOString(),
    };
    const metadata = engineMetadata({
      environment: ctx.environment,
      correlationId: workflowRunId,
      causationId: run.run_id,
      actor: 'system:engine',
    });
    return {
      flow: 'continue',
      status: 'ok',
      output: { workflow_key: settings.workflow_key, workflow_run_id: workflowRunId, recipients: triggered.recipients.length },
      appends: [
        ...identify,
        {
          streamId: workflowRunStream(ctx.environment, workflowRunId),
          expectedRevision: 'no_stream',
          events: [eventEnvelope('WorkflowTriggered', triggered, engineId('trigger-workflow-event', workflowRunId), metadata)],
        },
      ],
    };
  }

  /** The trigger body from the rendered settings, checked like a request to the endpoint. */
  private async body(ctx: StepContext, settings: TriggerSettings): Promise<TriggerWorkflowBodyT | { error: string }> {
    if (!settings.workflow_key) return { error: 'workflow_key is required' };
    const run = ctx.state.run!;
    const rendered: Record<string, unknown> = {};
    for (const field of ['recipients', 'actor', 'tenant', 'data', 'cancellation_key'] as const) {
      const source = settings[field];
      if (source === undefined || source === null || source.trim() === '') continue;
      const value = await jsonOrText(ctx, source, field);
      if (!value.ok) return { error: value.reason };
      if (value.value !== null && value.value !== '') rendered[field] = value.value;
    }
    const recipients = rendered.recipients ?? [toRequest(run.recipient)];
    const candidate = {
      recipients: Array.isArray(recipients) ? recipients : [recipients],
      actor: 'actor' in rendered ? rendered.actor : run.actor ? toRequest(run.actor) : null,
      tenant: 'tenant' in rendered ? rendered.tenant : run.tenant,
      data: 'data' in rendered ? rendered.data : ctx.state.data,
      cancellation_key: 'cancellation_key' in rendered ? String(rendered.cancellation_key) : null,
    };
    const parsed = TriggerWorkflowBody.safeParse(candidate);
    if (!parsed.success)
      return { error: `invalid settings: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` };
    return parsed.data;
  }

  /** How many workflow triggers led to this run. */
  private async depth(ctx: StepContext): Promise<number> {
    let source = ctx.state.run!.trigger_source;
    let depth = 0;
    while (source.type === 'workflow' && source.workflow_recipient_run_id && depth < MAX_TRIGGER_DEPTH) {
      depth++;
      const [enqueued] = await ctx.deps.store.readStream(runStream(ctx.environment, source.workflow_recipient_run_id), { maxCount: 1 });
      if (!enqueued) break;
      source = (enqueued.data as RunEnqueuedData).trigger_source;
    }
    return depth;
  }

  /** Inline recipients, actor and tenant are identified in the same append as the trigger. */
  private async identifications(ctx: StepContext, body: TriggerWorkflowBodyT): Promise<StreamAppend[] | { problem: string }> {
    const now = ctx.now.toISOString();
    const commands = new Map<string, { decider: Decider<unknown, unknown, DomainEvent>; command: Record<string, unknown> }>();
    const add = (streamId: string, decider: Decider<never, never, DomainEvent>, command: Record<string, unknown>) => {
      const existing = commands.get(streamId);
      if (existing)
        existing.command = {
          ...existing.command,
          properties: { ...(existing.command.properties as object), ...(command.properties as object) },
        };
      else commands.set(streamId, { decider: decider as unknown as Decider<unknown, unknown, DomainEvent>, command });
    };
    const problems: string[] = [];
    const inline = [
      ...(body.actor && typeof body.actor === 'object' ? [body.actor] : []),
      ...body.recipients.filter((r) => typeof r === 'object'),
    ];
    for (const request of inline) {
      const { id, collection, channel_data, preferences, ...properties } = request as Record<string, unknown> & {
        id: string;
        collection?: string;
      };
      if (channel_data != null || preferences != null)
        problems.push('inline channel_data and preferences cannot be set by a workflow step');
      if (typeof collection === 'string')
        add(objectStream(ctx.environment, collection, id), objectDecider as never, {
          type: 'SetObject',
          collection,
          objectId: id,
          properties,
          now,
        });
      else add(userStream(ctx.environment, id), userDecider as never, { type: 'IdentifyUser', userId: id, properties, now });
    }
    if (body.tenant && typeof body.tenant === 'object') {
      const { id, settings, channel_data, preferences, ...properties } = body.tenant as Record<string, unknown> & { id: string };
      if (channel_data != null || preferences != null)
        problems.push('inline channel_data and preferences cannot be set by a workflow step');
      add(tenantStream(ctx.environment, id), tenantDecider as never, {
        type: 'SetTenant',
        tenantId: id,
        properties,
        ...(settings !== undefined ? { settings } : {}),
        now,
      });
    }
    if (problems.length) return { problem: problems[0] };

    const run = ctx.state.run!;
    const metadata = engineMetadata({
      environment: ctx.environment,
      correlationId: run.workflow_run_id,
      causationId: run.run_id,
      actor: 'system:engine',
    });
    const appends: StreamAppend[] = [];
    for (const [streamId, { decider, command }] of commands) {
      const history = await ctx.deps.store.readStream(streamId);
      const state = fold(
        decider,
        history.map((e) => ({ type: e.type, data: e.data })),
      );
      const events = decider.decide(command, state);
      if (!events.length) continue;
      appends.push({
        streamId,
        expectedRevision: history.length ? history[history.length - 1].revision : 'no_stream',
        events: events.map((e, i) =>
          eventEnvelope(
            e.type,
            e.data,
            engineId('trigger-workflow-identify', run.run_id, ctx.step.ref, ctx.path.join('.'), streamId, i),
            metadata,
          ),
        ),
      });
    }
    return appends;
  }
}

/** A setting rendered with Liquid, then read as JSON when it is JSON and as text otherwise (`{{ recipient.id }}`). */
async function jsonOrText(ctx: StepContext, source: string, field: string): Promise<Rendered> {
  const result = await ctx.deps.templates.render(
    source,
    await ctx.variables(),
    ctx.deps.lookups.templateResources(ctx.environment, { tenant: ctx.state.run!.tenant }),
  );
  if (!result.ok) return { ok: false, reason: `template_render_error: ${field}: ${result.error.message}` };
  const text = result.output.trim();
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: true, value: text };
  }
}
