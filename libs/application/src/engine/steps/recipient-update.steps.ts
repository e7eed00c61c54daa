import { IdentifyUserBody, RecipientRefT, SetObjectBody, SetTenantBody } from '@notify/contracts';
import { engineMetadata, eventEnvelope } from '../../envelope';
import {
  Decider,
  DomainError,
  DomainEvent,
  fold,
  mergeProperties,
  objectDecider,
  objectStream,
  tenantDecider,
  tenantStream,
  userDecider,
  userStream,
} from '@notify/domain';
import { StreamAppend } from '@notify/eventstore';
import type { z } from 'zod';
import { engineId } from '../ids';
import type { StepContext, StepHandler, StepOutcome } from '../step-handler';
import { renderJsonSetting } from './render-json';

interface UpdateSettings {
  recipient_mode?: 'current' | 'reference';
  recipient_gid?: string;
  update_properties: string;
}

type Target = { kind: 'user'; id: string } | { kind: 'object'; collection: string; id: string } | { kind: 'tenant'; id: string };

/** `gid://Object/<collection>/<id>`; `$users` and `$tenants` name users and tenants. */
export function parseRecipientGid(gid: string): Target | undefined {
  const match = /^gid:\/\/Object\/([^/\s]+)\/([^/\s]+)$/.exec(gid.trim());
  if (!match) return undefined;
  const [, collection, id] = match.map((p) => decodeURIComponent(p));
  if (collection === '$users') return { kind: 'user', id };
  if (collection === '$tenants') return { kind: 'tenant', id };
  return { kind: 'object', collection, id };
}

const sameRef = (a: RecipientRefT | null, t: Target) =>
  !!a &&
  (t.kind === 'user'
    ? a.type === 'user' && a.id === t.id
    : t.kind === 'object' && a.type === 'object' && a.collection === t.collection && a.id === t.id);

/**
 * update_user, update_object and update_tenant: render `update_properties` and apply them
 * through the recipient's own decider, appended together with the run's progress (event ids
 * derived from the run and step, the recipient stream's revision as read), so a step executed
 * again changes the recipient once. Later steps of the run see the new properties.
 */
abstract class RecipientUpdateStep implements StepHandler {
  abstract readonly type: string;

  protected abstract target(ctx: StepContext, settings: UpdateSettings): Promise<Target | { skip: string } | { error: string }>;

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const settings = (ctx.step.settings ?? {}) as UpdateSettings;
    const target = await this.target(ctx, settings);
    if ('skip' in target) return { flow: 'continue', status: 'skipped', reason: target.skip };
    if ('error' in target) return { flow: 'continue', status: 'error', reason: target.error };

    const rendered = await renderJsonSetting(ctx, settings.update_properties ?? '{}', 'update_properties');
    if (!rendered.ok) return { flow: 'continue', status: 'error', reason: rendered.reason };
    const value = rendered.value;
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { flow: 'continue', status: 'error', reason: `${this.type}: update_properties must render to a JSON object` };
    const properties = value as Record<string, unknown>;
    for (const key of ['channel_data', 'preferences']) {
      if (key in properties)
        return { flow: 'continue', status: 'error', reason: `${this.type}: ${key} cannot be changed by a workflow step` };
    }
    const schema: z.ZodType = target.kind === 'user' ? IdentifyUserBody : target.kind === 'object' ? SetObjectBody : SetTenantBody;
    const checked = schema.safeParse(properties);
    if (!checked.success) {
      const fields = checked.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      return { flow: 'continue', status: 'error', reason: `${this.type}: invalid properties: ${fields}` };
    }

    try {
      const append = await this.decide(ctx, target, properties);
      const run = ctx.state.run!;
      const current = await ctx.variables();
      const { settings: _settings, ...plain } = properties;
      const patch = (base: Record<string, unknown> | null) => ({
        ...mergeProperties(base ?? {}, target.kind === 'tenant' ? plain : properties),
        id: target.id,
      });
      const variables: NonNullable<StepOutcome['variables']> = {};
      if (target.kind === 'tenant' && run.tenant === target.id) variables.tenant = patch(current.tenant);
      if (sameRef(run.recipient, target)) variables.recipient = patch(current.recipient);
      if (sameRef(run.actor, target)) variables.actor = patch(current.actor);
      return {
        flow: 'continue',
        status: 'ok',
        output: { target: describe(target), changed: append ? Object.keys(properties) : [] },
        appends: append ? [append] : [],
        ...(Object.keys(variables).length ? { variables } : {}),
      };
    } catch (error) {
      if (error instanceof DomainError)
        return { flow: 'continue', status: 'error', reason: `${this.type}: ${error.code}: ${error.message}` };
      throw error;
    }
  }

  /** Reads the recipient's stream and decides; the append carries the revision that was read. */
  private async decide(ctx: StepContext, target: Target, properties: Record<string, unknown>): Promise<StreamAppend | undefined> {
    const now = ctx.now.toISOString();
    if (target.kind === 'user') {
      return this.decideOn(ctx, userStream(ctx.environment, target.id), userDecider, {
        type: 'IdentifyUser',
        userId: target.id,
        properties,
        now,
      });
    }
    if (target.kind === 'object') {
      return this.decideOn(ctx, objectStream(ctx.environment, target.collection, target.id), objectDecider, {
        type: 'SetObject',
        collection: target.collection,
        objectId: target.id,
        properties,
        now,
      });
    }
    const { settings, ...rest } = properties as { settings?: Record<string, unknown> | null };
    return this.decideOn(ctx, tenantStream(ctx.environment, target.id), tenantDecider, {
      type: 'SetTenant',
      tenantId: target.id,
      properties: rest,
      ...(settings !== undefined ? { settings: settings as never } : {}),
      now,
    });
  }

  private async decideOn<S, C, E extends DomainEvent>(
    ctx: StepContext,
    streamId: string,
    decider: Decider<S, C, E>,
    command: C,
  ): Promise<StreamAppend | undefined> {
    const history = await ctx.deps.store.readStream(streamId);
    const state = fold(
      decider,
      history.map((e) => ({ type: e.type, data: e.data }) as E),
    );
    const events = decider.decide(command, state);
    if (events.length === 0) return undefined;
    const run = ctx.state.run!;
    const metadata = engineMetadata({
      environment: ctx.environment,
      correlationId: run.workflow_run_id,
      causationId: run.run_id,
      actor: 'system:engine',
    });
    const append: StreamAppend = {
      streamId,
      expectedRevision: history.length ? history[history.length - 1].revision : 'no_stream',
      events: events.map((e, i) =>
        eventEnvelope(e.type, e.data, engineId('recipient-update', run.run_id, ctx.step.ref, ctx.path.join('.'), i), metadata),
      ),
    };
    return append;
  }
}

function describe(target: Target): string {
  return target.kind === 'object' ? `gid://Object/${target.collection}/${target.id}` : `gid://Object/$${target.kind}s/${target.id}`;
}

async function referenced(
  ctx: StepContext,
  gid: string | undefined,
  kind: Target['kind'] | 'any',
  type: string,
): Promise<Target | { error: string }> {
  if (!gid) return { error: `${type}: recipient_gid is required` };
  const rendered = await ctx.deps.templates.render(
    gid,
    await ctx.variables(),
    ctx.deps.lookups.templateResources(ctx.environment, { tenant: ctx.state.run!.tenant }),
  );
  if (!rendered.ok) return { error: `template_render_error: recipient_gid: ${rendered.error.message}` };
  const target = parseRecipientGid(rendered.output);
  if (!target) return { error: `${type}: recipient_gid ${JSON.stringify(rendered.output)} is not gid://Object/{collection}/{id}` };
  if (kind !== 'any' && target.kind !== kind) return { error: `${type}: recipient_gid ${rendered.output} does not name a ${kind}` };
  return target;
}

export class UpdateUserStep extends RecipientUpdateStep {
  readonly type = 'update_user';

  protected async target(ctx: StepContext, settings: UpdateSettings): Promise<Target | { skip: string } | { error: string }> {
    if (settings.recipient_mode === 'reference') return referenced(ctx, settings.recipient_gid, 'user', this.type);
    const recipient = ctx.state.run!.recipient;
    if (recipient.type !== 'user')
      return { error: `update_user: the run's recipient is the object ${recipient.collection}/${recipient.id}, not a user` };
    return { kind: 'user', id: recipient.id };
  }
}

export class UpdateObjectStep extends RecipientUpdateStep {
  readonly type = 'update_object';

  protected target(ctx: StepContext, settings: UpdateSettings): Promise<Target | { error: string }> {
    return referenced(ctx, settings.recipient_gid, 'any', this.type);
  }
}

export class UpdateTenantStep extends RecipientUpdateStep {
  readonly type = 'update_tenant';

  protected async target(ctx: StepContext, settings: UpdateSettings): Promise<Target | { skip: string } | { error: string }> {
    if (settings.recipient_mode === 'reference') return referenced(ctx, settings.recipient_gid, 'tenant', this.type);
    const tenant = ctx.state.run!.tenant;
    return tenant ? { kind: 'tenant', id: tenant } : { skip: 'run_has_no_tenant' };
  }
}
