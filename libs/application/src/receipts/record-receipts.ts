import type { ParsedReceipt, ReceiptRequest, ReceiptSourceRegistry } from '@notify/delivery';
import {
  DomainError,
  MessageCreatedData,
  messageDecider,
  messageStream,
  resourceMissing,
  suppressionDecider,
  suppressionReasonOf,
} from '@notify/domain';
import type { EventStore } from '@notify/eventstore';
import { CommandMetadata, handleCommand } from '../handle-command';
import { resolveVariableReferences } from '../engine/delivery';
import { engineId } from '../engine/ids';
import { addressOf, suppressionStream } from './suppressions';
import type { EngineLookups } from '../engine/lookups';

export interface ReceiptUseCaseDeps {
  store: EventStore;
  lookups: Pick<EngineLookups, 'channelByKey' | 'vars'>;
  sources: ReceiptSourceRegistry;
  /** The message a provider knows by this id (read model of provider message ids). */
  messageIdOf(environment: string, providerMessageId: string): Promise<string | undefined>;
  /** Amazon SNS signing certificates, from allowed origins only. */
  certificate?: (url: string) => Promise<string>;
  /** Confirms an Amazon SNS subscription (GET of its SubscribeURL, from allowed origins only). */
  confirmSubscription?: (url: string) => Promise<void>;
  clock?: () => Date;
}

export interface ReceiptInput {
  environment: string;
  channelKey: string;
  source: string;
  request: Omit<ReceiptRequest, 'now'>;
}

/**
 * A receipt about a message the read model does not know yet, this recent, is answered 503 so the
 * provider delivers it again (its send may still be on its way into the read model); older ones
 * are someone else's messages and are ignored.
 */
export const RECEIPT_RETRY_WINDOW_MS = 15 * 60_000;

export interface ReceiptOutcome {
  recorded: number;
  duplicates: number;
  ignored: number;
}

/**
 * A provider's webhook about messages sent through a channel (ADR 0203): authenticated with the
 * channel's own settings before anything is read or written (401 otherwise), then each provider
 * event is recorded on its message, once per provider event id, and hard bounces and complaints
 * put the address on the environment's suppression list. Every append has ids derived from the
 * provider event, so a provider retrying after a lost answer records nothing twice.
 */
export async function recordDeliveryReceipts(
  deps: ReceiptUseCaseDeps,
  input: ReceiptInput,
  meta: CommandMetadata,
): Promise<ReceiptOutcome> {
  const now = (deps.clock ?? (() => new Date()))();
  const source = deps.sources.get(input.source);
  if (!source) throw resourceMissing('receipt source');
  const channel = await deps.lookups.channelByKey(input.environment, input.channelKey);
  if (!channel?.settings) throw unverified('the channel is not configured in this environment');
  let settings: Record<string, unknown> = { ...channel.settings.channel_settings, ...channel.settings.provider_settings };
  if (/\{\{\s*vars\./.test(JSON.stringify(settings)))
    settings = resolveVariableReferences(settings, await deps.lookups.vars(input.environment)) as Record<string, unknown>;
  const request: ReceiptRequest = { ...input.request, now };
  const verified = await source.verify(request, settings, { certificate: deps.certificate });
  if (!verified.ok) throw unverified(verified.reason);

  const parsed = source.parse(request);
  if (parsed.subscribeUrl) await deps.confirmSubscription?.(parsed.subscribeUrl);
  const outcome: ReceiptOutcome = { recorded: 0, duplicates: 0, ignored: parsed.ignored };
  let early = 0;
  for (const receipt of parsed.receipts) {
    const result = await recordOne(deps, input, channel.id, receipt, now, meta);
    if (result === 'early') early++;
    else outcome[result]++;
  }
  // Recorded ones are recorded once whatever the retry brings again (ids derive from the receipt).
  if (early)
    throw new DomainError(
      'receipt_message_unknown',
      `${early} receipt(s) name a message this service does not know yet; deliver them again later`,
      'unavailable',
    );
  return outcome;
}

async function recordOne(
  deps: ReceiptUseCaseDeps,
  input: ReceiptInput,
  channelId: string,
  receipt: ParsedReceipt,
  now: Date,
  meta: CommandMetadata,
): Promise<'recorded' | 'duplicates' | 'ignored' | 'early'> {
  const env = input.environment;
  const messageId = await deps.messageIdOf(env, receipt.providerMessageId);
  if (!messageId) {
    const age = now.getTime() - Date.parse(receipt.occurredAt);
    return Number.isFinite(age) && age < RECEIPT_RETRY_WINDOW_MS ? 'early' : 'ignored';
  }
  const streamId = messageStream(env, messageId);
  const created = (await deps.store.readStream(streamId, { maxCount: 1 }))[0]?.data as MessageCreatedData | undefined;
  // A receipt may only speak about messages sent through the channel whose secret signed it.
  if (!created || created.channel.id !== channelId) return 'ignored';
  const key = [env, input.source, receipt.receiptId];
  const recorded = await handleCommand(
    deps.store,
    streamId,
    messageDecider,
    {
      type: 'RecordReceipt',
      receipt: {
        receipt_id: receipt.receiptId,
        source: input.source,
        kind: receipt.kind,
        bounce_type: receipt.bounceType,
        reason: receipt.reason,
        url: receipt.url,
        recipient: receipt.recipient,
        payload: receipt.payload,
        occurred_at: receipt.occurredAt,
      },
      now: now.toISOString(),
    },
    { ...meta, causation_id: messageId, correlation_id: created.workflow_run_id },
    { eventId: (_e, i) => engineId('receipt', ...key, i) },
  );
  // Also on a replay: the first delivery of the event may have stopped before this append.
  const reason = suppressionReasonOf(receipt.kind, receipt.bounceType);
  const address = addressOf(created) ?? receipt.recipient;
  if (reason && address) {
    await handleCommand(
      deps.store,
      suppressionStream(env, address),
      suppressionDecider,
      {
        type: 'Suppress',
        address,
        reason,
        userId: created.recipient.type === 'user' ? created.recipient.id : null,
        messageId,
        source: input.source,
        detail: receipt.reason,
        now: now.toISOString(),
      },
      { ...meta, causation_id: messageId, correlation_id: created.workflow_run_id },
      { eventId: (_e, i) => engineId('receipt-suppress', ...key, i) },
    );
  }
  return recorded.events.length ? 'recorded' : 'duplicates';
}

const unverified = (reason: string) =>
  new DomainError('invalid_signature', `The receipt could not be authenticated: ${reason}`, 'unauthenticated');
