import type { OutboundHttp } from '@notify/outbound';
import { Exchange, isSuccess, type HttpOutcome } from '../support/exchange';
import { GRAPH_SCOPE, MicrosoftTokens } from '../support/microsoft';
import { Redactor } from '../support/redactor';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';

/**
 * Reads from a chat provider's API on behalf of a connected object: Slack's Web API with the
 * object's access token, Microsoft Graph with an app-only token for the object's tenant. Every
 * call goes through the outbound client (address policy, deadline) like a delivery does.
 */

export type LookupFailure = { ok: false; kind: 'auth' | 'unavailable'; reason: string };
type Answer = { ok: true; body: Record<string, unknown> } | LookupFailure;

function exchangeFor(settings: Record<string, unknown>, outbound?: OutboundHttp): Exchange {
  return new Exchange(Redactor.forSettings(settings), { settings }, undefined, outbound ? { outbound } : {});
}

function unavailable(outcome: HttpOutcome): LookupFailure {
  return {
    ok: false,
    kind: outcome.kind === 'response' && (outcome.status === 401 || outcome.status === 403) ? 'auth' : 'unavailable',
    reason: outcome.kind === 'error' ? `${outcome.code}: ${outcome.reason}` : `HTTP ${outcome.status}`,
  };
}

/** Slack errors that say the token is no good. */
const SLACK_AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive', 'missing_scope']);

export interface SlackChannel {
  id: string;
  name: string;
  is_private: boolean;
  is_im: boolean;
  context_team_id: string;
}

export class SlackLookups {
  constructor(
    private readonly settings: Record<string, unknown>,
    private readonly outbound?: OutboundHttp,
  ) {}

  private async call(method: string, token: string, params: Record<string, string>): Promise<Answer> {
    const exchange = exchangeFor(this.settings, this.outbound);
    exchange.redactor.add(token);
    const base = baseUrlOf(stringSetting(this.settings, 'base_url'), 'https://slack.com/api');
    const outcome = await exchange.http({
      method: 'POST',
      url: `${base}/${method}`,
      headers: { authorization: `Bearer ${token}` },
      form: params,
    });
    if (!isSuccess(outcome) || !isRecord(outcome.body)) return unavailable(outcome);
    if (outcome.body.ok === true) return { ok: true, body: outcome.body };
    const error = typeof outcome.body.error === 'string' ? outcome.body.error : 'unknown_error';
    return { ok: false, kind: SLACK_AUTH_ERRORS.has(error) ? 'auth' : 'unavailable', reason: error };
  }

  /** `conversations.list`, one page. */
  async channels(
    token: string,
    options: { cursor?: string; limit?: number; exclude_archived?: boolean; types?: string; team_id?: string },
  ): Promise<{ ok: true; channels: SlackChannel[]; nextCursor: string | null } | LookupFailure> {
    const answer = await this.call('conversations.list', token, {
      limit: String(options.limit ?? 200),
      exclude_archived: String(options.exclude_archived ?? true),
      types: options.types ?? 'public_channel,private_channel',
      ...(options.cursor ? { cursor: options.cursor } : {}),
      ...(options.team_id ? { team_id: options.team_id } : {}),
    });
    if (!answer.ok) return answer;
    const list = Array.isArray(answer.body.channels) ? answer.body.channels.filter(isRecord) : [];
    const meta = isRecord(answer.body.response_metadata) ? answer.body.response_metadata : {};
    return {
      ok: true,
      channels: list.map((c) => ({
        id: String(c.id),
        name: String(c.name ?? c.id),
        is_private: c.is_private === true,
        is_im: c.is_im === true,
        context_team_id: String(c.context_team_id ?? (Array.isArray(c.shared_team_ids) ? c.shared_team_ids[0] : '') ?? ''),
      })),
      nextCursor: typeof meta.next_cursor === 'string' && meta.next_cursor ? meta.next_cursor : null,
    };
  }

  /** `auth.test`: whether the token still works. */
  async authTest(token: string): Promise<{ ok: true } | LookupFailure> {
    const answer = await this.call('auth.test', token, {});
    return answer.ok ? { ok: true } : answer;
  }

  /** `auth.revoke`: the token stops working. */
  async revoke(token: string): Promise<{ ok: true } | LookupFailure> {
    const answer = await this.call('auth.revoke', token, {});
    return answer.ok ? { ok: true } : answer;
  }
}

/** OData options passed through to Graph. */
export interface GraphQueryOptions {
  $filter?: string;
  $select?: string;
  $top?: number;
  $skiptoken?: string;
}

/**
 * Microsoft Graph for a tenant, with an app-only token of the channel's app registration. Tokens
 * come from `tokens` (kept per tenant and credentials until shortly before they expire, one
 * request for concurrent callers; pass one instance for the process); Graph refusing a token
 * (401) drops it and the call is made once more with a new one.
 */
export class MsTeamsLookups {
  constructor(
    private readonly settings: Record<string, unknown>,
    private readonly outbound?: OutboundHttp,
    private readonly tokens: MicrosoftTokens = new MicrosoftTokens(),
  ) {}

  private async get(tenant: string, path: string, query: Record<string, string>): Promise<Answer> {
    const exchange = exchangeFor(this.settings, this.outbound);
    const graph = baseUrlOf(stringSetting(this.settings, 'graph_url'), 'https://graph.microsoft.com');
    const search = new URLSearchParams(query).toString();
    let outcome: HttpOutcome | undefined;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const signIn = await this.tokens.get(exchange, this.settings, tenant, GRAPH_SCOPE);
      if ('failure' in signIn) return { ok: false, kind: signIn.failure.retryable ? 'unavailable' : 'auth', reason: signIn.failure.reason };
      outcome = await exchange.http({
        method: 'GET',
        url: `${graph}/v1.0${path}${search ? `?${search}` : ''}`,
        headers: { authorization: `Bearer ${signIn.token}`, accept: 'application/json' },
      });
      if (!(outcome.kind === 'response' && outcome.status === 401)) break;
      // The token was refused (revoked, or the tenant's consent changed): sign in again, once.
      this.tokens.drop(this.settings, tenant, GRAPH_SCOPE);
    }
    if (!outcome || !isSuccess(outcome) || !isRecord(outcome.body)) {
      const failure = unavailable(outcome!);
      const error = outcome?.kind === 'response' && isRecord(outcome.body) && isRecord(outcome.body.error) ? outcome.body.error : undefined;
      return error && typeof error.message === 'string' ? { ...failure, reason: `${failure.reason}: ${error.message}` } : failure;
    }
    return { ok: true, body: outcome.body };
  }

  /** Whether the app can sign in to the tenant (it has consented): always a new sign-in, which then serves the next calls. */
  async authCheck(tenant: string): Promise<{ ok: true } | LookupFailure> {
    const exchange = exchangeFor(this.settings, this.outbound);
    this.tokens.drop(this.settings, tenant, GRAPH_SCOPE);
    const signIn = await this.tokens.get(exchange, this.settings, tenant, GRAPH_SCOPE);
    return 'failure' in signIn ? { ok: false, kind: 'auth', reason: signIn.failure.reason } : { ok: true };
  }

  /** `GET /teams`: the tenant's teams, one page; the skip token of the next. */
  async teams(
    tenant: string,
    options: GraphQueryOptions,
  ): Promise<
    { ok: true; teams: { id: string; displayName: string; description: string | null }[]; skipToken: string | null } | LookupFailure
  > {
    const answer = await this.get(tenant, '/teams', odata(options));
    if (!answer.ok) return answer;
    const list = Array.isArray(answer.body.value) ? answer.body.value.filter(isRecord) : [];
    const nextLink = answer.body['@odata.nextLink'];
    const next = typeof nextLink === 'string' ? nextLink : '';
    return {
      ok: true,
      teams: list.map((t) => ({
        id: String(t.id),
        displayName: String(t.displayName ?? ''),
        description: typeof t.description === 'string' ? t.description : null,
      })),
      skipToken: next ? (new URL(next).searchParams.get('$skiptoken') ?? null) : null,
    };
  }

  /** `GET /teams/{id}/channels`: without a filter of the caller's, standard (not private) channels that are not archived. */
  async channels(
    tenant: string,
    teamId: string,
    options: GraphQueryOptions,
  ): Promise<{ ok: true; channels: Record<string, unknown>[] } | LookupFailure> {
    const query = odata({ $filter: options.$filter ?? "membershipType eq 'standard'", $select: options.$select });
    const answer = await this.get(tenant, `/teams/${encodeURIComponent(teamId)}/channels`, query);
    if (!answer.ok) return answer;
    const list = (Array.isArray(answer.body.value) ? answer.body.value.filter(isRecord) : []).filter(
      (c) => options.$filter !== undefined || c.isArchived !== true,
    );
    return {
      ok: true,
      channels: list.map((c) => ({
        id: String(c.id),
        displayName: String(c.displayName ?? ''),
        ...(c.description !== undefined ? { description: typeof c.description === 'string' ? c.description : null } : {}),
        ...(typeof c.createdDateTime === 'string' ? { createdDateTime: c.createdDateTime } : {}),
        ...(typeof c.isArchived === 'boolean' ? { isArchived: c.isArchived } : {}),
        ...(typeof c.membershipType === 'string' ? { membershipType: c.membershipType } : {}),
      })),
    };
  }
}

function odata(options: GraphQueryOptions): Record<string, string> {
  return Object.fromEntries(
    Object.entries(options)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
}
