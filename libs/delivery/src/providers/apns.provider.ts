import { createHash } from 'node:crypto';
import type { Exchange, ProviderIo } from '../support/exchange';
import { failureOf, isSuccess } from '../support/exchange';
import { Http2Session } from '../support/http2-client';
import { signingKeyProblem, signJwt } from '../support/jwt';
import { z } from 'zod';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, DeliveryTargetResult, ProviderConfig, PushContent } from '../types';
import { BaseProvider } from './base.provider';
import { pushTokens } from './push-tokens';

const ORIGINS = { production: 'https://api.push.apple.com', development: 'https://api.sandbox.push.apple.com' } as const;
/** Apple refuses provider tokens older than an hour and asks not to renew them more than every 20 minutes. */
const PROVIDER_TOKEN_TTL_MS = 50 * 60_000;

export interface ApnsProviderOptions extends ProviderIo {
  now?: () => number;
}

/**
 * Push through Apple's APNs over HTTP/2: `POST /3/device/{token}` per device, authenticated
 * with a provider token (JWT, ES256, `kid` = key id, `iss` = team id) reused for 50 minutes.
 * `apns-id` is derived from the idempotency key and the device token, so every attempt of one
 * message to one device carries the same id. Settings: `key_id`, `team_id`, `private_key` (the
 * .p8 key), `bundle_id` (the `apns-topic`), `environment` (`production`, the default, or
 * `development` for the sandbox).
 */
export class ApnsProvider extends BaseProvider<PushContent> {
  readonly id = 'apns';
  readonly channelType = 'push' as const;
  private readonly providerTokens = new Map<string, { jwt: string; issuedAt: number }>();
  private readonly now: () => number;

  constructor(options: ApnsProviderOptions = {}) {
    super(options);
    this.now = options.now ?? Date.now;
  }

  override readonly settingsSchema = settingsSchema({
    key_id: text(),
    team_id: text(),
    private_key: text().superRefine((key, ctx) => {
      const problem = signingKeyProblem('ES256', key);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    bundle_id: text(),
    environment: z.enum(['production', 'development'], { error: 'must be production or development' }).optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: PushContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const tokens = pushTokens(request.channelData);
    if (!tokens.length)
      return exchange.failed({
        retryable: false,
        code: 'missing_push_tokens',
        reason: `recipient ${request.recipient.id} has no push tokens for this channel`,
      });
    const settings = config.settings;
    const jwt = this.providerToken(settings);
    exchange.redactor.add(jwt);
    const origin = baseUrlOf(config.baseUrl, ORIGINS[settings.environment === 'development' ? 'development' : 'production']);
    const payload = content.silent
      ? { ...content.data, notify_message_id: request.messageId, aps: { 'content-available': 1 } }
      : {
          ...content.data,
          notify_message_id: request.messageId,
          aps: { alert: { title: content.title, body: content.body }, sound: 'default' },
        };

    const session = new Http2Session(origin, exchange);
    const gone = new Set<string>();
    let retryAfterMs: number | undefined;
    try {
      const targets = await Promise.all(
        tokens.map(async (token): Promise<DeliveryTargetResult> => {
          const apnsId = stableUuid(`${request.idempotencyKey}|${token}`);
          const outcome = await session.request(
            `/3/device/${encodeURIComponent(token)}`,
            {
              authorization: `bearer ${jwt}`,
              'apns-topic': stringSetting(settings, 'bundle_id')!,
              'apns-push-type': content.silent ? 'background' : 'alert',
              'apns-priority': content.silent ? '5' : '10',
              'apns-id': apnsId,
            },
            payload,
          );
          if (isSuccess(outcome))
            return { target: `token:${token}`, outcome: 'sent', providerMessageId: outcome.headers['apns-id'] ?? apnsId };
          const failure = failureOf(outcome, describeApnsError);
          if (DEAD_APNS_TOKEN.has(failure.code ?? '')) gone.add(token);
          if (failure.code === 'apns_expiredprovidertoken') {
            // Our clock and Apple's disagree about the token's age: mint a new one next time.
            this.providerTokens.delete(tokenKey(settings));
            failure.retryable = true;
          }
          if (failure.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, failure.retryAfterMs);
          return {
            target: `token:${token}`,
            outcome: 'failed',
            retryable: failure.retryable,
            reason: failure.reason,
            ...(failure.code ? { code: failure.code } : {}),
          };
        }),
      );
      // In the order of the channel data, not of the answers.
      return exchange.fannedOut(
        targets,
        tokens.filter((t) => gone.has(t)),
        retryAfterMs,
      );
    } finally {
      session.close();
    }
  }

  private providerToken(settings: Record<string, unknown>): string {
    const key = tokenKey(settings);
    const cached = this.providerTokens.get(key);
    if (cached && this.now() - cached.issuedAt < PROVIDER_TOKEN_TTL_MS) return cached.jwt;
    const issuedAt = this.now();
    const jwt = signJwt(
      'ES256',
      { kid: stringSetting(settings, 'key_id') },
      { iss: stringSetting(settings, 'team_id'), iat: Math.floor(issuedAt / 1000) },
      stringSetting(settings, 'private_key')!,
    );
    this.providerTokens.set(key, { jwt, issuedAt });
    return jwt;
  }
}

function tokenKey(settings: Record<string, unknown>): string {
  return `${stringSetting(settings, 'team_id')}|${stringSetting(settings, 'key_id')}`;
}

/** A UUID (version 8 layout, RFC 9562) made from a SHA-256 of `input`: the same input, the same id. */
export function stableUuid(input: string): string {
  const bytes = createHash('sha256').update(input).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** APNs reasons that mean the device token will never work again (410 Unregistered, 400 BadDeviceToken, wrong app). */
const DEAD_APNS_TOKEN = new Set(['apns_unregistered', 'apns_baddevicetoken', 'apns_devicetokennotfortopic']);

/** APNs errors: `{reason}` (e.g. `BadDeviceToken`), plus `timestamp` on 410 Unregistered. */
function describeApnsError(body: unknown): { reason?: string; code?: string } {
  if (!isRecord(body) || typeof body.reason !== 'string') return {};
  return { reason: body.reason, code: `apns_${body.reason.toLowerCase()}` };
}
