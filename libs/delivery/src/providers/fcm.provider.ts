import type { Exchange, ProviderIo } from '../support/exchange';
import { failureOf, isSuccess } from '../support/exchange';
import { signingKeyProblem, signJwt } from '../support/jwt';
import { z } from 'zod';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, DeliveryTargetResult, ProviderConfig, PushContent } from '../types';
import { BaseProvider } from './base.provider';
import { pushTokens } from './push-tokens';

const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const DEFAULT_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** Access tokens are dropped this long before Google says they expire. */
const EXPIRY_MARGIN_MS = 60_000;

interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

export interface FcmProviderOptions extends ProviderIo {
  now?: () => number;
}

/**
 * Push through FCM HTTP v1: `POST /v1/projects/{project_id}/messages:send`, one request per
 * device token. Auth is OAuth2 with a service account: a JWT signed RS256 with the account's
 * private key is exchanged at the token URL for an access token, cached per account until a
 * minute before it expires. Settings: `service_account` (the JSON key file, as an object or a
 * string), optional `project_id` and `token_url` overrides.
 */
export class FcmProvider extends BaseProvider<PushContent> {
  readonly id = 'fcm';
  readonly channelType = 'push' as const;
  private readonly tokens = new Map<string, CachedToken>();
  private readonly now: () => number;

  constructor(options: FcmProviderOptions = {}) {
    super(options);
    this.now = options.now ?? Date.now;
  }

  override readonly settingsSchema = settingsSchema({
    project_id: z.string().optional(),
    service_account: z.unknown().optional(),
  }).superRefine((settings, ctx) => {
    const account = serviceAccountOf(settings);
    if (!account) {
      ctx.addIssue({ code: 'custom', path: ['service_account'], message: 'is required (the JSON key of a Google service account)' });
      return;
    }
    for (const key of ['client_email', 'private_key'] as const)
      if (typeof account[key] !== 'string' || !account[key])
        ctx.addIssue({ code: 'custom', path: ['service_account', key], message: 'is required' });
    const keyProblem =
      typeof account.private_key === 'string' && account.private_key ? signingKeyProblem('RS256', account.private_key) : undefined;
    if (keyProblem) ctx.addIssue({ code: 'custom', path: ['service_account', 'private_key'], message: keyProblem });
    if (!stringSetting(settings, 'project_id') && !account.project_id)
      ctx.addIssue({ code: 'custom', path: ['project_id'], message: 'is required (in the settings or the service account)' });
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
    const account = serviceAccountOf(config.settings)!;
    const tokenUrl = stringSetting(config.settings, 'token_url') ?? account.token_uri ?? DEFAULT_TOKEN_URL;

    const auth = await this.accessToken(account, tokenUrl, exchange);
    if ('failure' in auth) return auth.failure;

    const project = stringSetting(config.settings, 'project_id') ?? account.project_id;
    const url = `${baseUrlOf(config.baseUrl, 'https://fcm.googleapis.com')}/v1/projects/${encodeURIComponent(project)}/messages:send`;
    const data = stringValues({ ...content.data, notify_message_id: request.messageId });
    const gone = new Set<string>();
    let retryAfterMs: number | undefined;
    const targets = await Promise.all(
      tokens.map(async (token): Promise<DeliveryTargetResult> => {
        const outcome = await exchange.http({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${auth.accessToken}` },
          json: {
            message: content.silent
              ? silentMessage(token, data)
              : { token, notification: { title: content.title, body: content.body }, data },
          },
        });
        const status = outcome.kind === 'response' ? outcome.status : undefined;
        if (isSuccess(outcome)) {
          const name = isRecord(outcome.body) && typeof outcome.body.name === 'string' ? outcome.body.name : undefined;
          return { target: `token:${token}`, outcome: 'sent', ...(name ? { providerMessageId: name } : {}) };
        }
        const failure = failureOf(outcome, describeFcmError);
        if (DEAD_FCM_TOKEN.has(failure.code ?? '')) gone.add(token);
        // Our access token was refused: mint a new one on the next attempt.
        if (status === 401 && failure.code !== 'fcm_third_party_auth_error') {
          this.tokens.delete(cacheKey(account, tokenUrl));
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
  }

  private async accessToken(
    account: ServiceAccount,
    tokenUrl: string,
    exchange: Exchange,
  ): Promise<{ accessToken: string } | { failure: DeliveryResult }> {
    const key = cacheKey(account, tokenUrl);
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > this.now()) {
      exchange.redactor.add(cached.accessToken);
      return { accessToken: cached.accessToken };
    }
    const issuedAt = Math.floor(this.now() / 1000);
    const assertion = signJwt(
      'RS256',
      account.private_key_id ? { kid: account.private_key_id } : {},
      { iss: account.client_email, scope: FCM_SCOPE, aud: tokenUrl, iat: issuedAt, exp: issuedAt + 3600 },
      account.private_key,
    );
    exchange.redactor.add(assertion);
    const outcome = await exchange.http({
      method: 'POST',
      url: tokenUrl,
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion },
    });
    if (isSuccess(outcome) && isRecord(outcome.body) && typeof outcome.body.access_token === 'string') {
      const accessToken = outcome.body.access_token;
      exchange.redactor.add(accessToken);
      const expiresIn = typeof outcome.body.expires_in === 'number' ? outcome.body.expires_in : 3600;
      this.tokens.set(key, { accessToken, expiresAt: this.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS });
      return { accessToken };
    }
    const failure = isSuccess(outcome)
      ? { retryable: true, code: 'fcm_token_exchange_failed', reason: 'the token endpoint answered without an access_token' }
      : failureOf(outcome, describeOAuthError);
    return { failure: exchange.failed({ ...failure, reason: `token exchange at ${tokenUrl} failed: ${failure.reason}` }) };
  }
}

function serviceAccountOf(settings: Record<string, unknown>): ServiceAccount | undefined {
  let value = settings.service_account;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return isRecord(value) ? (value as unknown as ServiceAccount) : undefined;
}

function cacheKey(account: ServiceAccount, tokenUrl: string): string {
  return `${tokenUrl}|${account.client_email}|${account.private_key_id ?? ''}`;
}

/** FCM data values must be strings; other values travel as JSON. */
function stringValues(data: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(data)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}

/** A data-only message, flagged so iOS wakes the app in the background. */
function silentMessage(token: string, data: Record<string, string>) {
  return {
    token,
    data,
    android: { priority: 'normal' },
    apns: { headers: { 'apns-push-type': 'background', 'apns-priority': '5' }, payload: { aps: { 'content-available': 1 } } },
  };
}

/** FCM errors: `{error: {code, message, status, details: [{'@type': '...FcmError', errorCode}]}}`. */
/**
 * FCM error codes that mean the registration token is gone: v1 `UNREGISTERED` and
 * `SENDER_ID_MISMATCH` (the token belongs to another project), legacy `NotRegistered` and
 * `InvalidRegistration`.
 */
const DEAD_FCM_TOKEN = new Set(['fcm_unregistered', 'fcm_sender_id_mismatch', 'fcm_notregistered', 'fcm_invalidregistration']);

function describeFcmError(body: unknown): { reason?: string; code?: string } {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (!error) return {};
  const details = Array.isArray(error.details) ? error.details : [];
  const fcm = details.find((d) => isRecord(d) && typeof d.errorCode === 'string') as { errorCode: string } | undefined;
  const code = fcm?.errorCode ?? (typeof error.status === 'string' ? error.status : undefined);
  return {
    ...(typeof error.message === 'string' ? { reason: `${code ? `${code}: ` : ''}${error.message}` } : {}),
    ...(code ? { code: `fcm_${code.toLowerCase()}` } : {}),
  };
}

/** OAuth2 errors: `{error, error_description}` (RFC 6749 5.2). */
function describeOAuthError(body: unknown): { reason?: string; code?: string } {
  if (!isRecord(body) || typeof body.error !== 'string') return {};
  return {
    code: `oauth_${body.error}`,
    reason: typeof body.error_description === 'string' ? `${body.error}: ${body.error_description}` : body.error,
  };
}
