import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Exchange, FailureInit } from './exchange';
import { failureOf, isSuccess } from './exchange';
import { isRecord, stringSetting } from './settings';
import { text, url } from './settings-schema';

export const MICROSOFT_LOGIN = 'https://login.microsoftonline.com';
export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';

/** The Azure bot's app registration: what both Bot Framework sends and Graph lookups sign in with. */
export const microsoftAppSettings = {
  app_id: text(),
  app_password: text(),
  /** A single-tenant bot's own tenant; multi-tenant bots sign in at `botframework.com`. */
  tenant_id: z.string().optional(),
  login_url: url().optional(),
};

/**
 * An app-only access token by the OAuth 2.0 client credentials grant at the Microsoft identity
 * platform (`POST {login}/{tenant}/oauth2/v2.0/token`), for the Bot Connector or Graph scope.
 */
export async function microsoftToken(
  exchange: Exchange,
  settings: Record<string, unknown>,
  tenant: string,
  scope: string,
): Promise<{ token: string; expiresInMs?: number } | { failure: FailureInit }> {
  const login = (stringSetting(settings, 'login_url') ?? MICROSOFT_LOGIN).replace(/\/+$/, '');
  const outcome = await exchange.http({
    method: 'POST',
    url: `${login}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
    form: {
      grant_type: 'client_credentials',
      client_id: stringSetting(settings, 'app_id') ?? '',
      client_secret: stringSetting(settings, 'app_password') ?? '',
      scope,
    },
  });
  if (isSuccess(outcome) && isRecord(outcome.body) && typeof outcome.body.access_token === 'string') {
    exchange.redactor.add(outcome.body.access_token);
    const expiresIn = typeof outcome.body.expires_in === 'number' ? outcome.body.expires_in : 3600;
    return { token: outcome.body.access_token, expiresInMs: expiresIn * 1000 };
  }
  const failure = failureOf(outcome, (b) =>
    isRecord(b) && typeof b.error === 'string'
      ? { code: `microsoft_${b.error}`, reason: typeof b.error_description === 'string' ? b.error_description.split('\n')[0] : b.error }
      : {},
  );
  return { failure: { ...failure, reason: `token request: ${failure.reason}` } };
}

/** A token is used until a minute before it expires. */
const EXPIRY_MARGIN_MS = 60_000;

type SignIn = { token: string } | { failure: FailureInit };

/**
 * App-only tokens kept per sign-in (login origin, tenant, scope, app id and password) until a
 * minute before they expire, so a burst of messages or lookups signs in once. Concurrent calls
 * for a sign-in with no usable token share one token request (single flight). `drop` forgets one
 * the API refused (the next call signs in again). Expired tokens are forgotten as new ones come.
 */
export class MicrosoftTokens {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<SignIn>>();

  constructor(private readonly now: () => number = Date.now) {}

  private key(settings: Record<string, unknown>, tenant: string, scope: string): string {
    const secret = createHash('sha256')
      .update(stringSetting(settings, 'app_password') ?? '')
      .digest('hex');
    return [stringSetting(settings, 'login_url') ?? MICROSOFT_LOGIN, tenant, scope, stringSetting(settings, 'app_id'), secret].join('|');
  }

  async get(exchange: Exchange, settings: Record<string, unknown>, tenant: string, scope: string): Promise<SignIn> {
    const key = this.key(settings, tenant, scope);
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > this.now()) {
      exchange.redactor.add(cached.token);
      return { token: cached.token };
    }
    let signIn = this.pending.get(key);
    if (!signIn) {
      signIn = this.signIn(key, exchange, settings, tenant, scope);
      this.pending.set(key, signIn);
    }
    const answer = await signIn;
    if ('token' in answer) exchange.redactor.add(answer.token);
    return answer;
  }

  private async signIn(key: string, exchange: Exchange, settings: Record<string, unknown>, tenant: string, scope: string): Promise<SignIn> {
    try {
      const signIn = await microsoftToken(exchange, settings, tenant, scope);
      if (!('token' in signIn)) return signIn;
      const now = this.now();
      for (const [k, v] of this.tokens) if (v.expiresAt <= now) this.tokens.delete(k);
      this.tokens.set(key, { token: signIn.token, expiresAt: now + (signIn.expiresInMs ?? 3_600_000) - EXPIRY_MARGIN_MS });
      return { token: signIn.token };
    } finally {
      this.pending.delete(key);
    }
  }

  /** Forgets the token of a sign-in; one another call already asked for is still shared. */
  drop(settings: Record<string, unknown>, tenant: string, scope: string): void {
    this.tokens.delete(this.key(settings, tenant, scope));
  }
}
