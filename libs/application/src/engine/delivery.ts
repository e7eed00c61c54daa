import { randomUUID } from 'node:crypto';
import type { RecipientRefT, RenderedContentT } from '@notify/contracts';
import { DEFAULT_TIMEOUT_MS, DeliveryContent, DeliveryResult, ProviderRegistry, retryDelayFor, RetryPolicy } from '@notify/delivery';
import {
  attemptOfTimer,
  checkedAttemptOfTimer,
  DeliveryAttemptCompletedData,
  fold,
  MessageCreatedData,
  messageDecider,
  MessageEvent,
  messageStream,
  objectDecider,
  objectStream,
  suppressionDecider,
  userDecider,
  userStream,
} from '@notify/domain';
import { EventStore, RecordedEvent, WrongExpectedRevisionError } from '@notify/eventstore';
import { CommandMetadata, handleCommand } from '../handle-command';
import { engineId } from './ids';
import type { ChannelView, EngineLookups } from './lookups';
import { inSpan } from '@notify/observability';
import { engineMetadata } from '../envelope';
import { addressOf, suppressionStream } from '../receipts/suppressions';

/** Providers that take an idempotency key, so a call interrupted by a crash may be made again. */
const IDEMPOTENT_PROVIDERS = new Set(['resend', 'onesignal']);

/** Slack on top of the longest wait a provider call can take (FCM: the token exchange, then the sends). */
const IN_FLIGHT_MARGIN_MS = 2_000;

/** Thrown while the worker stops: the batch is not checkpointed, so the message is taken up again on restart. */
export class DeliveryStoppedError extends Error {
  constructor(messageId: string) {
    super(`delivery of message ${messageId} stopped with the worker; it resumes on restart`);
  }
}

export function toDeliveryContent(content: RenderedContentT): DeliveryContent {
  switch (content.channel_type) {
    case 'email':
      return {
        type: 'email',
        subject: content.subject,
        html_body: content.html_body,
        text_body: content.text_body,
        from: content.from,
        reply_to: content.reply_to ?? null,
        cc: content.cc ?? null,
        bcc: content.bcc ?? null,
        headers: content.headers ?? null,
      };
    case 'sms':
      return { type: 'sms', body: content.body };
    case 'push':
      return { type: 'push', title: content.title, body: content.body, data: content.data ?? null, silent: content.silent === true };
    case 'chat':
      return { type: 'chat', markdown_body: content.text, summary: content.summary ?? null, json_body: content.json ?? null };
    case 'http':
      return {
        type: 'http',
        method: content.method as 'POST',
        url: content.url,
        headers: content.headers,
        query_params: content.query ?? null,
        body: content.body,
      };
    case 'in_app_feed':
      return { type: 'in_app_feed', blocks: content.blocks };
    case 'in_app_guide':
      // Guide messages are delivered when they are created (in-app): no provider ever sends one.
      throw new Error('guide messages are not delivered through a provider');
  }
}

/**
 * `{{ vars.name }}` references in provider settings (how a secret variable is shared by several
 * channels) replaced with the environment's values; any other Liquid is left as it is.
 */
export function resolveVariableReferences(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string')
    return value.replace(/\{\{\s*vars\.([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) =>
      vars[name] === undefined || vars[name] === null ? whole : String(vars[name]),
    );
  if (Array.isArray(value)) return value.map((v) => resolveVariableReferences(v, vars));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveVariableReferences(v, vars)]));
  return value;
}

const hasVariableReference = (value: unknown): boolean => /\{\{\s*vars\./.test(JSON.stringify(value) ?? '');

/** How long a provider call started elsewhere may still be running: two deadlines (token exchange, send) and a margin. */
export function inFlightBoundMs(settings: Record<string, unknown>): number {
  const timeout = typeof settings.timeout_ms === 'number' && settings.timeout_ms > 0 ? settings.timeout_ms : DEFAULT_TIMEOUT_MS;
  return 2 * timeout + IN_FLIGHT_MARGIN_MS;
}

type AttemptResult = Omit<DeliveryAttemptCompletedData, 'message_id' | 'completed_at'>;

export interface DeliveryExecutorOptions {
  /** Provider calls in flight at once; further messages wait for a slot (and hold their reactor batch). */
  concurrency?: number;
  /** A provider call whose outcome could not be recorded (its check timer settles the attempt). */
  onError?: (error: unknown, messageId: string) => void;
  clock?: () => Date;
  /** The service's PUBLIC_URL: providers are given their receipts endpoint under it (`ProviderConfig.receiptsUrl`). */
  publicUrl?: string | null;
}

/**
 * Delivers messages through their provider, one attempt at a time. The attempt is recorded
 * before the provider is called (with the stream's revision, so two workers never both start
 * it), together with a check timer due when the call can no longer be in flight anywhere; the
 * outcome is recorded after, with the retry schedule. The call runs detached from the reactor's
 * batch, so a slow provider holds up no other message.
 *
 * A check timer that finds its attempt unfinished means a worker stopped mid-call and the
 * outcome is unknown: the message ends undelivered rather than risk sending twice, unless the
 * provider takes an idempotency key, in which case it is retried with the same key.
 */
export class DeliveryExecutor {
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly waiting: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly clock: () => Date;
  private slotsTaken = 0;

  constructor(
    private readonly store: EventStore,
    private readonly lookups: EngineLookups,
    private readonly providers: ProviderRegistry,
    private readonly policy: RetryPolicy,
    private readonly options: DeliveryExecutorOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 32;
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * The worker is stopping: provider calls in flight are aborted and nothing is recorded for
   * them (their outcome is unknown; their check timers settle them after the restart), and no
   * new attempt starts: handling throws DeliveryStoppedError, so the event is handled again.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.allSettled([...this.inFlight]);
  }

  /** For a MessageCreated, a retry TimerFired or a check TimerFired of a message stream. */
  async handle(environment: string, messageId: string, trigger: { type: string; timerId?: string }): Promise<void> {
    const streamId = messageStream(environment, messageId);
    const history = await this.store.readStream(streamId);
    const state = fold(
      messageDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as MessageEvent),
    );
    const createdEvent = history.find((e) => e.type === 'MessageCreated');
    const created = createdEvent?.data as MessageCreatedData | undefined;
    if (!created || (state.status !== 'queued' && state.status !== 'delivery_attempted')) return;
    if (this.stopping.signal.aborted) throw new DeliveryStoppedError(messageId);
    const meta: CommandMetadata = engineMetadata({
      environment,
      correlationId: created.workflow_run_id,
      causationId: messageId,
      actor: 'system:delivery',
      cause: createdEvent?.metadata,
    });

    const checked = trigger.type === 'TimerFired' ? checkedAttemptOfTimer(trigger.timerId ?? '') : undefined;
    if (checked !== undefined) {
      // The attempt can no longer be in flight: finished, or cut off.
      if (checked > state.attemptsCompleted && checked <= state.attemptsStarted) await this.interrupted(streamId, meta, created, checked);
      return;
    }
    const attempt = trigger.type === 'TimerFired' ? attemptOfTimer(trigger.timerId ?? '') : 1;
    // Started already (finished, or its check timer will tell), or not a delivery timer.
    if (attempt === undefined || attempt <= state.attemptsStarted) return;

    await this.takeSlot();
    let handedOver = false;
    try {
      if (this.stopping.signal.aborted) throw new DeliveryStoppedError(messageId);
      const channel = await this.lookups.channelByKey(environment, created.channel.key);
      // One clock reading for the attempt's start and its check deadline.
      const startedAt = this.clock();
      const checkAt = new Date(startedAt.getTime() + inFlightBoundMs(settingsOf(channel))).toISOString();
      try {
        // The claim's ids are this claim's own: the store answers an append of ids it already
        // holds as a replay of the first (idempotency), so derived ids would let a worker racing
        // on the same MessageCreated "succeed" too and call the provider a second time. With
        // ids of its own, the loser gets a revision conflict. A claim that landed but whose
        // answer was lost is settled by its check timer, never by a second call.
        const claim = randomUUID();
        const started = await handleCommand(
          this.store,
          streamId,
          messageDecider,
          { type: 'StartDeliveryAttempt', attempt, now: startedAt.toISOString(), checkAt },
          meta,
          {
            eventId: (_e, i) => engineId('attempt-start', messageId, attempt, claim, i),
            maxAttempts: 1,
          },
        );
        if (started.events.length === 0) return;
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) return; // another worker started it
        throw error;
      }
      const task: Promise<void> = inSpan(
        `deliver ${created.channel.type}`,
        {
          parent: createdEvent?.metadata,
          attributes: {
            'notify.message_id': messageId,
            'notify.channel_key': created.channel.key,
            'notify.attempt': attempt,
            'notify.environment': environment,
          },
        },
        () => this.attempt(environment, streamId, meta, created, channel, attempt),
      )
        .catch((error: unknown) => this.options.onError?.(error, messageId))
        .finally(() => {
          this.inFlight.delete(task);
          this.releaseSlot();
        });
      this.inFlight.add(task);
      handedOver = true;
    } finally {
      if (!handedOver) this.releaseSlot();
    }
  }

  /**
   * After an attempt that found dead push tokens: removes them from the recipient's channel data
   * (through the recipient's own aspect command, which decides on its current state, so a token
   * added meanwhile stays). Safe to repeat.
   */
  async dropInvalidTokens(event: RecordedEvent): Promise<void> {
    const completed = event.data as DeliveryAttemptCompletedData;
    if (!completed.invalid_tokens?.length) return;
    const environment = event.metadata.environment!;
    const created = (await this.store.readStream(messageStream(environment, completed.message_id), { maxCount: 1 }))[0]?.data as
      MessageCreatedData | undefined;
    if (!created) return;
    const command = {
      type: 'RemoveChannelDataTokens' as const,
      channelId: created.channel.id,
      tokens: completed.invalid_tokens,
      now: this.clock().toISOString(),
    };
    const meta: CommandMetadata = {
      environment,
      correlation_id: created.workflow_run_id,
      causation_id: event.id,
      actor: 'system:delivery',
    };
    const ref: RecipientRefT = created.recipient;
    const eventId = (_e: unknown, i: number) => engineId('invalid-tokens', event.id, i);
    if (ref.type === 'user') {
      await handleCommand(
        this.store,
        userStream(environment, ref.id),
        userDecider,
        { type: 'UpdateUserAspects', userId: ref.id, commands: [command], now: command.now },
        meta,
        { eventId },
      );
    } else {
      await handleCommand(
        this.store,
        objectStream(environment, ref.collection, ref.id),
        objectDecider,
        { type: 'UpdateObjectAspects', collection: ref.collection, objectId: ref.id, commands: [command], now: command.now },
        meta,
        { eventId },
      );
    }
  }

  /**
   * After an attempt the provider refused as a hard bounce there and then (an SMTP server
   * refusing the mailbox): the address goes on the environment's suppression list, as a bounce
   * receipt would put it (ADR 0204). Safe to repeat.
   */
  async suppressBounced(event: RecordedEvent): Promise<void> {
    const completed = event.data as DeliveryAttemptCompletedData;
    if (!completed.bounced) return;
    const environment = event.metadata.environment!;
    const created = (await this.store.readStream(messageStream(environment, completed.message_id), { maxCount: 1 }))[0]?.data as
      MessageCreatedData | undefined;
    const address = created && addressOf(created);
    if (!created || !address) return;
    await handleCommand(
      this.store,
      suppressionStream(environment, address),
      suppressionDecider,
      {
        type: 'Suppress',
        address,
        reason: 'hard_bounce',
        userId: created.recipient.type === 'user' ? created.recipient.id : null,
        messageId: created.message_id,
        source: completed.provider,
        detail: completed.reason,
        now: this.clock().toISOString(),
      },
      { environment, correlation_id: created.workflow_run_id, causation_id: event.id, actor: 'system:delivery' },
      { eventId: (_e, i) => engineId('bounce-suppress', event.id, i) },
    );
  }

  /** One provider call and its recorded outcome; nothing is recorded for a call the stop cut off. */
  private async attempt(
    environment: string,
    streamId: string,
    meta: CommandMetadata,
    created: MessageCreatedData,
    channel: ChannelView | undefined,
    attempt: number,
  ): Promise<void> {
    const result = await this.send(environment, created, channel, attempt);
    if (this.stopping.signal.aborted && result.outcome === 'failed' && (result.code === 'aborted' || result.code === 'timeout')) return;
    const delay = retryDelayFor(this.policy, attempt, result);
    await this.complete(
      streamId,
      meta,
      {
        attempt,
        outcome: result.outcome,
        retryable: result.outcome === 'failed' && result.retryable,
        reason:
          result.outcome === 'failed'
            ? result.code && !result.reason.includes(result.code)
              ? `${result.code}: ${result.reason}`
              : result.reason
            : null,
        provider: created.channel.provider,
        provider_message_id: result.outcome === 'failed' ? null : (result.providerMessageId ?? null),
        logs: result.logs,
        ...(result.invalidTokens?.length ? { invalid_tokens: result.invalidTokens } : {}),
        ...(result.outcome === 'failed' && result.bounced ? { bounced: true } : {}),
      },
      delay,
    );
  }

  /**
   * An attempt that started and never finished. Without an idempotency key the provider may or
   * may not have the message: undelivered, never sent twice. With one, it is retried (same key).
   */
  private async interrupted(streamId: string, meta: CommandMetadata, created: MessageCreatedData, attempt: number): Promise<void> {
    const reason = 'delivery_interrupted: the worker stopped during the provider call, whose outcome is unknown';
    const repeatable = IDEMPOTENT_PROVIDERS.has(created.channel.provider);
    const delay = repeatable ? retryDelayFor(this.policy, attempt, { outcome: 'failed', retryable: true, reason, logs: [] }) : null;
    await this.complete(
      streamId,
      meta,
      {
        attempt,
        outcome: 'failed',
        retryable: repeatable,
        reason: repeatable ? reason : `${reason}; not retried, to avoid sending twice`,
        provider: created.channel.provider,
        provider_message_id: null,
        logs: [],
      },
      delay,
    );
  }

  private async send(
    environment: string,
    created: MessageCreatedData,
    channel: ChannelView | undefined,
    attempt: number,
  ): Promise<DeliveryResult> {
    if (!channel?.settings)
      return {
        outcome: 'failed',
        retryable: false,
        code: 'channel_not_configured',
        reason: `channel ${created.channel.key} is no longer configured in ${environment}`,
        logs: [],
      };
    let settings = settingsOf(channel);
    if (hasVariableReference(settings))
      settings = resolveVariableReferences(settings, await this.lookups.vars(environment)) as Record<string, unknown>;
    const recipient = await this.lookups.recipient(environment, created.recipient);
    // Tokens and connections as they are now (a token dropped since creation is not used).
    const channelData =
      channel.type === 'push' || channel.type === 'chat'
        ? await this.lookups.channelData(environment, created.recipient, channel.id)
        : undefined;
    return this.providers.send(
      {
        messageId: created.message_id,
        environment,
        attempt,
        idempotencyKey: created.message_id,
        recipient: { id: created.recipient.id, ...(recipient?.properties ?? {}), ...(created.recipient_snapshot ?? {}) },
        channelData: channelData ?? null,
        content: toDeliveryContent(created.content),
      },
      {
        provider: channel.provider,
        channelType: channel.type as never,
        settings,
        baseUrl: typeof settings.base_url === 'string' ? settings.base_url : undefined,
        ...(this.options.publicUrl ? { receiptsUrl: receiptsUrlOf(this.options.publicUrl, environment, channel) } : {}),
      },
      this.stopping.signal,
    );
  }

  /** Records an attempt's outcome; its time and its retry time come from one clock reading. */
  private async complete(streamId: string, meta: CommandMetadata, result: AttemptResult, retryDelayMs: number | null): Promise<void> {
    const now = this.clock();
    const retryAt = retryDelayMs === null ? null : new Date(now.getTime() + retryDelayMs).toISOString();
    await handleCommand(
      this.store,
      streamId,
      messageDecider,
      { type: 'CompleteDeliveryAttempt', result, retryAt, now: now.toISOString() },
      meta,
      {
        eventId: (_e, i) => engineId('attempt-complete', streamId, result.attempt, i),
      },
    );
  }

  private async takeSlot(): Promise<void> {
    while (this.slotsTaken >= this.concurrency && !this.stopping.signal.aborted) await new Promise<void>((wake) => this.waiting.push(wake));
    this.slotsTaken++;
  }

  private releaseSlot(): void {
    this.slotsTaken--;
    this.waiting.shift()?.();
  }
}

/** The receipts endpoint of a channel's provider (ADR 0203's route), absolute under the public URL. */
export function receiptsUrlOf(publicUrl: string, environment: string, channel: { key: string; provider: string }): string {
  const segments = [environment, channel.key, channel.provider].map(encodeURIComponent).join('/');
  return `${publicUrl.replace(/\/+$/, '')}/v1/receipts/${segments}`;
}

/** What the provider is given: the channel's settings with its provider settings (secrets opened) over them. */
function settingsOf(channel: ChannelView | undefined): Record<string, unknown> {
  return { ...(channel?.settings?.channel_settings ?? {}), ...(channel?.settings?.provider_settings ?? {}) };
}
