import type { RenderedContentT } from '@notify/contracts';
import { DeliveryContent, DeliveryResult, ProviderRegistry, retryDelayFor, RetryPolicy } from '@notify/delivery';
import { attemptOfTimer, fold, MessageCreatedData, messageDecider, MessageEvent, messageStream } from '@notify/domain';
import { EventStore, WrongExpectedRevisionError } from '@notify/eventstore';
import { handleCommand } from '../handle-command';
import { engineId } from './ids';
import type { EngineLookups } from './lookups';

/** Providers that take an idempotency key, so a call interrupted by a crash may be made again. */
const IDEMPOTENT_PROVIDERS = new Set(['resend']);

function toDeliveryContent(content: RenderedContentT): DeliveryContent {
  switch (content.channel_type) {
    case 'email':
      return { type: 'email', subject: content.subject, html_body: content.html_body, text_body: content.text_body, from: content.from, reply_to: content.reply_to ?? null, cc: content.cc ?? null, bcc: content.bcc ?? null };
    case 'sms':
      return { type: 'sms', body: content.body };
    case 'push':
      return { type: 'push', title: content.title, body: content.body, data: content.data ?? null };
    case 'chat':
      return { type: 'chat', markdown_body: content.text, json_body: content.json ?? null };
    case 'http':
      return { type: 'http', method: content.method as 'POST', url: content.url, headers: content.headers, query_params: content.query ?? null, body: content.body };
    case 'in_app_feed':
      return { type: 'in_app_feed', blocks: content.blocks } as DeliveryContent;
  }
}

/**
 * Delivers messages through their provider, one attempt at a time. The attempt is recorded
 * before the provider is called (with the stream's revision, so two workers never both start
 * it); the outcome is recorded after, with the retry schedule. An attempt found started but not
 * finished was interrupted by a crash: it is made again only where the provider takes an
 * idempotency key, otherwise it ends as undelivered rather than risk sending twice.
 */
export class DeliveryExecutor {
  constructor(
    private readonly store: EventStore,
    private readonly lookups: EngineLookups,
    private readonly providers: ProviderRegistry,
    private readonly policy: RetryPolicy,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** For a MessageCreated or a retry TimerFired of a message stream. */
  async handle(environment: string, messageId: string, trigger: { type: string; timerId?: string }): Promise<void> {
    const streamId = messageStream(environment, messageId);
    const history = await this.store.readStream(streamId);
    const state = fold(messageDecider, history.map((e) => ({ type: e.type, data: e.data }) as MessageEvent));
    const created = history.find((e) => e.type === 'MessageCreated')?.data as MessageCreatedData | undefined;
    if (!created || state.status !== 'queued' && state.status !== 'delivery_attempted') return;
    const attempt = trigger.type === 'TimerFired' ? attemptOfTimer(trigger.timerId ?? '') : 1;
    if (attempt === undefined || attempt <= state.attemptsCompleted) return;
    const meta = { environment, correlation_id: created.workflow_run_id, causation_id: messageId, actor: 'system:delivery' };
    const now = () => this.clock().toISOString();

    if (attempt <= state.attemptsStarted) {
      // Started before and never finished: the worker stopped mid-call.
      if (!IDEMPOTENT_PROVIDERS.has(created.channel.provider)) {
        await this.complete(streamId, meta, { attempt, outcome: 'failed', retryable: false, reason: 'delivery_interrupted: the outcome of the provider call is unknown; not retried to avoid a duplicate', provider: created.channel.provider, provider_message_id: null, logs: [] }, null, now());
        return;
      }
    } else {
      try {
        const started = await handleCommand(this.store, streamId, messageDecider, { type: 'StartDeliveryAttempt', attempt, now: now() }, meta, {
          eventId: (_e, i) => engineId('attempt-start', messageId, attempt, i),
          maxAttempts: 1,
        });
        if (started.events.length === 0) return;
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) return; // another worker started it
        throw error;
      }
    }

    const result = await this.send(environment, created, attempt);
    const delay = retryDelayFor(this.policy, attempt, result);
    const retryAt = delay === null ? null : new Date(this.clock().getTime() + delay).toISOString();
    await this.complete(
      streamId,
      meta,
      {
        attempt,
        outcome: result.outcome,
        retryable: result.outcome === 'failed' && result.retryable,
        reason: result.outcome === 'failed' ? result.reason : null,
        provider: created.channel.provider,
        provider_message_id: result.outcome === 'failed' ? null : result.providerMessageId ?? null,
        logs: result.logs,
      },
      retryAt,
      now(),
    );
  }

  private async send(environment: string, created: MessageCreatedData, attempt: number): Promise<DeliveryResult> {
    const channel = await this.lookups.channelByKey(environment, created.channel.key);
    if (!channel?.settings) return { outcome: 'failed', retryable: false, reason: `channel ${created.channel.key} is no longer configured in ${environment}`, logs: [] };
    const provider = this.providers.get(channel.provider);
    if (!provider) return { outcome: 'failed', retryable: false, reason: `provider ${channel.provider} is not supported`, logs: [] };
    const settings = { ...channel.settings.channel_settings, ...channel.settings.provider_settings };
    const recipient = await this.lookups.recipient(environment, created.recipient);
    const channelData = channel.type === 'push' || channel.type === 'chat' ? await this.lookups.channelData(environment, created.recipient, channel.id) : undefined;
    return this.providers.send(
      {
        messageId: created.message_id,
        environment,
        attempt,
        idempotencyKey: created.message_id,
        recipient: { id: created.recipient.id, ...(recipient?.properties ?? {}), ...(created.recipient_snapshot ?? {}) },
        channelData: channelData ?? (created.content.channel_type === 'chat' ? { connections: created.content.connections } : null),
        content: toDeliveryContent(created.content),
      },
      { provider: channel.provider, channelType: channel.type as never, settings, baseUrl: typeof settings.base_url === 'string' ? settings.base_url : undefined },
    );
  }

  private async complete(streamId: string, meta: Parameters<typeof handleCommand>[4], result: Parameters<typeof messageDecider.decide>[0] extends infer C ? (C extends { type: 'CompleteDeliveryAttempt'; result: infer R } ? R : never) : never, retryAt: string | null, now: string): Promise<void> {
    await handleCommand(this.store, streamId, messageDecider, { type: 'CompleteDeliveryAttempt', result, retryAt, now }, meta, {
      eventId: (_e, i) => engineId('attempt-complete', streamId, result.attempt, i),
    });
  }
}
