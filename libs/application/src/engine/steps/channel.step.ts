import type { RecipientRefT } from '@notify/contracts';
import {
  explainPreferences,
  MessageCreatedData,
  messageDecider,
  messageStream,
  nextSendTime,
  SendWindow,
  sendWindowTimeZone,
} from '@notify/domain';
import { engineId, messageIdFor } from '../ids';
import type { ChannelView, SuppressionEntry } from '../lookups';
import type { StepContext, StepHandler, StepOutcome } from '../step-handler';
import { trackContentLinks, withOpenPixel } from '../../messages/link-tracking';
import { bareAddress } from '../../receipts/suppressions';
import { channelTemplateContext } from '../variables';
import { channelDataTrace, destinationFor, renderChannelContent } from './channel-content';
import { engineMetadata, eventEnvelope } from '../../envelope';
import { guideMessage, guideStepMessageIds } from '../../guides/guide-messages';

interface ChannelStepDef {
  ref: string;
  guide_key?: string | null;
  channel_key?: string | null;
  channel_group_key?: string | null;
  template?: Record<string, unknown>;
  channel_overrides?: Record<string, unknown> | null;
  send_windows?: SendWindow[] | null;
}

/**
 * A message over one channel: the channel must be configured in the environment; preferences
 * (unless the workflow overrides them), an address or channel data, and the send window must
 * allow it; then the template is rendered and the message created. In-app messages are
 * delivered at once; other channels are delivered by the delivery worker.
 */
export class ChannelStep implements StepHandler {
  readonly type = 'channel';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const step = ctx.step as unknown as ChannelStepDef;
    const { lookups } = ctx.deps;
    const run = ctx.state.run!;
    const recipient = await ctx.recipient();
    if (!recipient) return { flow: 'continue', status: 'skipped', reason: 'recipient_not_found' };

    const channel = await this.channel(ctx, step, recipient.ref);
    if (!channel)
      return {
        flow: 'continue',
        status: 'error',
        reason: step.channel_key ? `channel_not_configured:${step.channel_key}` : `channel_group_without_channel:${step.channel_group_key}`,
      };

    const variables = await ctx.variables();
    const workflow = ctx.trigger.workflow;
    const settings = workflow.settings ?? {};
    const layers = await lookups.preferenceLayers(ctx.environment, run.recipient, run.tenant);
    const { decision: preference, trace } = explainPreferences({
      layers,
      workflow: {
        key: workflow.key,
        categories: workflow.categories,
        commercial: settings.is_commercial === true,
        overridePreferences: settings.override_preferences === true,
      },
      channel: { id: channel.id, type: channel.type },
      context: { variables, now: ctx.now.toISOString() },
    });
    if (!preference.send)
      return {
        flow: 'continue',
        status: 'skipped',
        reason: `preference:${preference.reason}`,
        output: { source: preference.source, channel_id: channel.id },
        inputs: { preferences: trace },
      };

    // Whatever follows, the step records the preferences it was allowed by (ADR 0219).
    const outcome = channel.type === 'in_app_guide' ? await this.guide(ctx, step, channel) : await this.send(ctx, step, channel, recipient);
    return { ...outcome, inputs: { ...outcome.inputs, preferences: trace } };
  }

  /** Past the preferences: channel data or an address, the send window, the render, the suppression list, the message. */
  private async send(
    ctx: StepContext,
    step: ChannelStepDef,
    channel: ChannelView,
    recipient: NonNullable<Awaited<ReturnType<StepContext['recipient']>>>,
  ): Promise<StepOutcome> {
    const { lookups } = ctx.deps;
    const run = ctx.state.run!;
    const variables = await ctx.variables();
    const workflow = ctx.trigger.workflow;

    const needsData = channel.type === 'push' || channel.type === 'chat';
    const channelData = needsData ? await lookups.channelData(ctx.environment, run.recipient, channel.id) : undefined;
    const channelSettings = { ...(channel.settings?.channel_settings ?? {}), ...(step.channel_overrides ?? {}) };
    const templateSettings = (step.template?.settings ?? {}) as { to_number?: unknown };
    const overrides = { to_address: channelSettings.to_address, to_number: templateSettings.to_number ?? channelSettings.to_number };
    const destination = destinationFor(channel.type, channel.provider, recipient.properties, channelData, overrides);
    // Which channel data or address the step found, as references (ADR 0239): recorded whatever it decides next.
    const inputs = {
      channel_data: channelDataTrace(channel.id, channel.type, channel.provider, recipient.properties, channelData, overrides),
    };
    if ('missing' in destination)
      return { flow: 'continue', status: 'skipped', reason: destination.missing, output: { channel_id: channel.id }, inputs };

    const timezone = recipient.properties.timezone as string | undefined;
    const sendAt = nextSendTime(step.send_windows, timezone, ctx.now);
    if (!sendAt) return { flow: 'continue', status: 'skipped', reason: 'no_send_window', inputs };
    if (sendAt.getTime() > ctx.now.getTime()) {
      const windows = (step.send_windows ?? []).map((w) => ({ ...w }));
      const window = { timezone: sendWindowTimeZone(timezone), windows, opens_at: sendAt.toISOString() };
      const pause = { reason: 'send_window' as const, resume_at: sendAt.toISOString(), send_window: window };
      return { flow: 'pause', reason: 'send_window', resumeAt: sendAt, inputs: { ...inputs, pause } };
    }

    const batch = ctx.state.batch;
    const actor = run.actor;
    const activities = batch?.activities ?? [{ id: run.run_id, actor, data: ctx.state.data, inserted_at: run.enqueued_at }];
    const actors = batch?.actors ?? (actor ? [actor] : []);
    const prefLinks = preferenceLinksFor(ctx, run.recipient, run.tenant, workflow.categories);
    const context = {
      ...channelTemplateContext(variables, {
        activities,
        actors,
        total_activities: batch?.total_activities ?? 1,
        total_actors: batch?.total_actors ?? actors.length,
      }),
      preferences_url: prefLinks?.page ?? null,
    };
    const rendered = await renderChannelContent(
      ctx.deps.templates,
      {
        type: channel.type,
        settings: channelSettings,
        defaultFrom: typeof channel.settings?.provider_settings.from === 'string' ? channel.settings.provider_settings.from : null,
      },
      step.template ?? {},
      destination.destination,
      context,
      lookups.templateResources(ctx.environment, { tenant: run.tenant }),
    );
    if (!rendered.ok) return { flow: 'continue', status: 'error', reason: rendered.reason, output: { channel_id: channel.id }, inputs };
    const suppression = await suppressionOf(ctx, rendered.content);
    if (suppression)
      return {
        flow: 'continue',
        status: 'skipped',
        reason: `suppressed:${suppression.reason}`,
        output: { channel_id: channel.id, address: suppression.address },
        inputs: {
          ...inputs,
          suppression: {
            reason: suppression.reason,
            message_id: suppression.message_id,
            source: suppression.source,
            detail: suppression.detail,
            suppressed_at: suppression.suppressed_at,
          },
        },
      };

    const messageId = messageIdFor(run.run_id, step.ref, ctx.path);
    // Per channel (its `link_tracking` / `open_tracking`, step overrides included), else the service default.
    const links = ctx.deps.links;
    const linked =
      links && links.tracksLinks(channelSettings, rendered.content.channel_type)
        ? trackContentLinks(rendered.content, (url) => links.urlFor({ environment: ctx.environment, messageId, url }), {
            provider: channel.provider,
            // As delivery reads them (provider settings over channel settings): Telegram's parse_mode is the markup.
            settings: { ...channelSettings, ...(channel.settings?.provider_settings ?? {}) },
          })
        : rendered.content;
    const tracked =
      links && linked.channel_type === 'email' && channelSettings.open_tracking === true
        ? { ...linked, html_body: withOpenPixel(linked.html_body, links.openPixelUrl(ctx.environment, messageId)) }
        : linked;
    const content =
      tracked.channel_type === 'email' && prefLinks?.unsubscribe
        ? {
            ...tracked,
            headers: { 'List-Unsubscribe': `<${prefLinks.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
          }
        : tracked;
    const sandbox = ctx.trigger.settings.sandbox_mode === true || channel.settings?.is_sandbox === true;
    const message: MessageCreatedData = {
      message_id: messageId,
      channel: { id: channel.id, key: channel.key, type: channel.type, provider: channel.provider },
      recipient: run.recipient,
      recipient_snapshot: snapshotOf(rendered.content, destination.destination),
      workflow: { key: workflow.key, categories: workflow.categories, version: workflow.version },
      workflow_run_id: run.workflow_run_id,
      workflow_recipient_run_id: run.run_id,
      step_ref: step.ref,
      tenant: run.tenant,
      actors,
      activities,
      total_activities: batch?.total_activities ?? 1,
      total_actors: batch?.total_actors ?? actors.length,
      data: ctx.state.data,
      content,
      metadata: null,
      sandbox,
      created_at: ctx.now.toISOString(),
    };
    const delivery = sandbox ? 'sandbox' : channel.type === 'in_app_feed' || channel.type === 'in_app' ? 'now' : 'provider';
    const events = messageDecider.decide(
      { type: 'CreateMessage', message, delivery, now: ctx.now.toISOString() },
      messageDecider.initialState(),
    );
    const metadata = engineMetadata({
      environment: ctx.environment,
      correlationId: run.workflow_run_id,
      causationId: run.run_id,
      actor: 'system:engine',
    });
    return {
      flow: 'continue',
      status: 'ok',
      output: { message_id: messageId, channel_id: channel.id, channel_type: channel.type, delivery },
      inputs,
      appends: [
        {
          streamId: messageStream(ctx.environment, messageId),
          expectedRevision: 'no_stream',
          events: events.map((e, i) => eventEnvelope(e.type, e.data, engineId('message-event', messageId, i), metadata)),
        },
      ],
    };
  }

  /**
   * An in-app guide step delivers the guide's first step to a user as a guide message, the one the
   * user's engagement with the guide then lands on (ADR 0188). A user who already has it (from an
   * earlier run or from engaging) keeps it: the step records nothing new.
   */
  private async guide(ctx: StepContext, step: ChannelStepDef, channel: ChannelView): Promise<StepOutcome> {
    const run = ctx.state.run!;
    if (run.recipient.type !== 'user') return { flow: 'continue', status: 'skipped', reason: 'guide_recipient_not_user' };
    const guide = step.guide_key ? await ctx.deps.lookups.guide(ctx.environment, step.guide_key) : undefined;
    if (!guide || guide.steps.length === 0) return { flow: 'continue', status: 'error', reason: `guide_not_found:${step.guide_key}` };
    if (guide.channelKey !== channel.key)
      return { flow: 'continue', status: 'error', reason: `guide_on_other_channel:${guide.key}`, output: { channel_id: channel.id } };
    const recipient = { environment: ctx.environment, userId: run.recipient.id, tenant: run.tenant };
    const first = guide.steps[0];
    const messageId = (await guideStepMessageIds(ctx.deps.store, recipient, guide)).get(first.ref)!;
    const output = { message_id: messageId, channel_id: channel.id, channel_type: channel.type, guide_key: guide.key };
    if ((await ctx.deps.store.readStream(messageStream(ctx.environment, messageId))).length > 0)
      return { flow: 'continue', status: 'ok', reason: 'guide_message_exists', output };
    const workflow = ctx.trigger.workflow;
    const now = ctx.now.toISOString();
    const message = guideMessage(
      recipient,
      { key: guide.key, sha: guide.sha, channel: { id: channel.id, key: channel.key, type: channel.type, provider: channel.provider } },
      first,
      messageId,
      now,
      {
        data: ctx.state.data,
        run: {
          workflow: { key: workflow.key, categories: workflow.categories, version: workflow.version },
          workflow_run_id: run.workflow_run_id,
          workflow_recipient_run_id: run.run_id,
        },
      },
    );
    const events = messageDecider.decide({ type: 'CreateMessage', message, delivery: 'now', now }, messageDecider.initialState());
    const metadata = engineMetadata({
      environment: ctx.environment,
      correlationId: run.workflow_run_id,
      causationId: run.run_id,
      actor: 'system:engine',
    });
    return {
      flow: 'continue',
      status: 'ok',
      output: { ...output, delivery: 'now' },
      appends: [
        {
          streamId: messageStream(ctx.environment, messageId),
          expectedRevision: 'no_stream',
          events: events.map((e, i) => eventEnvelope(e.type, e.data, engineId('message-event', messageId, i), metadata)),
        },
      ],
    };
  }

  /** The step's channel, or the first channel of its group the recipient can be reached on. */
  private async channel(
    ctx: StepContext,
    step: ChannelStepDef,
    ref: NonNullable<StepContext['state']['run']>['recipient'],
  ): Promise<ChannelView | undefined> {
    const { lookups } = ctx.deps;
    if (step.channel_key) return lookups.channelByKey(ctx.environment, step.channel_key);
    if (!step.channel_group_key) return undefined;
    const group = await lookups.channelGroup(ctx.environment, step.channel_group_key);
    const recipient = await ctx.recipient();
    for (const key of group?.channels ?? []) {
      const channel = await lookups.channelByKey(ctx.environment, key);
      if (!channel || !recipient) continue;
      const data =
        channel.type === 'push' || channel.type === 'chat' ? await lookups.channelData(ctx.environment, ref, channel.id) : undefined;
      if (!('missing' in destinationFor(channel.type, channel.provider, recipient.properties, data))) return channel;
    }
    return undefined;
  }
}

/** What the message went to: the address it was rendered for (an override included), or the tokens and connections. */
/**
 * The suppression entry (hard bounce, complaint, manual) of the address an email or SMS would go
 * to, if any (ADR 0204). Checked on the rendered `to`, so a `to_address` override counts too.
 */
async function suppressionOf(ctx: StepContext, content: MessageCreatedData['content']): Promise<SuppressionEntry | undefined> {
  if (content.channel_type !== 'email' && content.channel_type !== 'sms') return undefined;
  const address = bareAddress(content.to);
  if (!address || !ctx.deps.lookups.suppressions) return undefined;
  return (await ctx.deps.lookups.suppressions(ctx.environment, [address]))[0];
}

function snapshotOf(content: MessageCreatedData['content'], destination: Record<string, unknown>): Record<string, unknown> {
  if (content.channel_type === 'email') return { email: content.to };
  if (content.channel_type === 'sms') return { phone_number: content.to };
  return destination;
}

/**
 * A user's signed preference links (ADR 0190), when the service makes them: the hosted page
 * (`preferences_url` in templates) and, for a workflow with categories, the one-click unsubscribe
 * link of its emails. Made at the run's time, so a replay renders the same links.
 */
function preferenceLinksFor(
  ctx: StepContext,
  recipient: RecipientRefT,
  tenant: string | null,
  categories: string[],
): { page: string; unsubscribe: string | null } | null {
  const links = ctx.deps.preferenceLinks;
  if (!links || recipient.type !== 'user') return null;
  const claims = { environment: ctx.environment, userId: recipient.id, tenant };
  return {
    page: links.pageUrl(links.token('page', claims, ctx.now)),
    unsubscribe: categories.length ? links.unsubscribeUrl(links.token('unsubscribe', { ...claims, categories }, ctx.now)) : null,
  };
}
