import type { RecipientRefT } from '@notify/contracts';
import { MicrosoftTokens, MsTeamsLookups, SlackLookups, type GraphQueryOptions, type LookupFailure } from '@notify/delivery';
import { DomainError, invalidParams, resourceMissing } from '@notify/domain';
import type { OutboundHttp } from '@notify/outbound';
import { resolveVariableReferences } from '../engine/delivery';

/** A chat channel as the lookups need it: its provider settings opened. */
export interface LookupChannel {
  id: string;
  type: string;
  provider: string;
  settings: Record<string, unknown>;
}

/** What provider lookups read and write besides the provider's API. */
export interface ProviderLookupDeps {
  channel(environment: string, id: string): Promise<LookupChannel | undefined>;
  channelData(environment: string, recipient: RecipientRefT, channelId: string): Promise<Record<string, unknown> | undefined>;
  /** Replaces the recipient's data for the channel (through the recipient's own commands). */
  setChannelData(environment: string, recipient: RecipientRefT, channel: LookupChannel, data: Record<string, unknown>): Promise<void>;
  outbound?: OutboundHttp;
  /** The environment's variables (secret ones opened): `{{ vars.x }}` in the channel's settings are replaced, as delivery does. */
  vars?(environment: string): Promise<Record<string, unknown>>;
  /** Microsoft Graph tokens, kept across requests (one instance per process); without it each lookup signs in. */
  graphTokens?: MicrosoftTokens;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{"collection":"projects","object_id":"p1"}` names an object; any other string a user id. */
export function parseRecipientReference(value: string, field: string): RecipientRefT {
  const text = value.trim();
  if (!text.startsWith('{')) return { type: 'user', id: text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidParams([{ field, message: 'must be a JSON object {"collection", "object_id"} or a user id', type: 'invalid' }]);
  }
  if (
    isRecord(parsed) &&
    typeof parsed.collection === 'string' &&
    parsed.collection &&
    typeof parsed.object_id === 'string' &&
    parsed.object_id
  )
    return { type: 'object', collection: parsed.collection, id: parsed.object_id };
  if (isRecord(parsed) && typeof parsed.user_id === 'string' && parsed.user_id) return { type: 'user', id: parsed.user_id };
  throw invalidParams([{ field, message: 'must name a collection and an object_id', type: 'invalid' }]);
}

const accessTokenNotSet = () => new DomainError('authorization', 'Access token not set.', 'forbidden');

function lookupError(failure: LookupFailure, provider: string): DomainError {
  return failure.kind === 'auth'
    ? new DomainError('authorization', `${provider} refused the credentials: ${failure.reason}`, 'forbidden')
    : new DomainError('provider_unavailable', `${provider} did not answer the lookup: ${failure.reason}`, 'unavailable');
}

async function chatChannel(deps: ProviderLookupDeps, environment: string, id: string, kind: 'slack' | 'teams'): Promise<LookupChannel> {
  const channel = await deps.channel(environment, id);
  if (!channel || channel.type !== 'chat' || !channel.provider.toLowerCase().includes(kind)) throw resourceMissing('channel');
  if (!deps.vars || !/\{\{\s*vars\./.test(JSON.stringify(channel.settings))) return channel;
  return { ...channel, settings: resolveVariableReferences(channel.settings, await deps.vars(environment)) as Record<string, unknown> };
}

/** Slack lookups for a recipient connected with an access token (`token.access_token` in its channel data). */
export class SlackProviderLookups {
  constructor(private readonly deps: ProviderLookupDeps) {}

  private async connection(environment: string, channelId: string, reference: string) {
    const channel = await chatChannel(this.deps, environment, channelId, 'slack');
    const recipient = parseRecipientReference(reference, 'access_token_object');
    const data = (await this.deps.channelData(environment, recipient, channel.id)) ?? {};
    const token =
      isRecord(data.token) && typeof data.token.access_token === 'string' && data.token.access_token ? data.token.access_token : undefined;
    return { channel, recipient, data, token, api: new SlackLookups(channel.settings, this.deps.outbound) };
  }

  async channels(
    environment: string,
    channelId: string,
    reference: string,
    options: { cursor?: string; limit?: number; exclude_archived?: boolean; types?: string; team_id?: string } = {},
  ) {
    const { token, api } = await this.connection(environment, channelId, reference);
    if (!token) throw accessTokenNotSet();
    const answer = await api.channels(token, options);
    if (!answer.ok) throw lookupError(answer, 'Slack');
    return { slack_channels: answer.channels, next_cursor: answer.nextCursor };
  }

  async authCheck(environment: string, channelId: string, reference: string) {
    const { token, api } = await this.connection(environment, channelId, reference);
    if (!token) return { connection: { ok: false, reason: 'Access token not set.' } };
    const answer = await api.authTest(token);
    if (!answer.ok && answer.kind === 'unavailable') throw lookupError(answer, 'Slack');
    return { connection: answer.ok ? { ok: true } : { ok: false, reason: answer.reason } };
  }

  /** Revokes the token at Slack (a token Slack no longer knows counts as revoked) and removes it from the channel data. */
  async revokeAccess(environment: string, channelId: string, reference: string) {
    const { channel, recipient, data, token, api } = await this.connection(environment, channelId, reference);
    if (!token) throw accessTokenNotSet();
    const answer = await api.revoke(token);
    if (!answer.ok && answer.kind === 'unavailable') throw lookupError(answer, 'Slack');
    await this.deps.setChannelData(environment, recipient, channel, {
      ...data,
      connections: Array.isArray(data.connections) ? data.connections : [],
      token: null,
    });
    return { ok: 'ok' };
  }
}

/** Microsoft Teams lookups for a recipient connected to a Microsoft Entra tenant (`ms_teams_tenant_id` in its channel data). */
export class MsTeamsProviderLookups {
  private readonly graphTokens: MicrosoftTokens;

  constructor(private readonly deps: ProviderLookupDeps) {
    this.graphTokens = deps.graphTokens ?? new MicrosoftTokens();
  }

  private async connection(environment: string, channelId: string, reference: string) {
    const channel = await chatChannel(this.deps, environment, channelId, 'teams');
    const recipient = parseRecipientReference(reference, 'ms_teams_tenant_object');
    const data = (await this.deps.channelData(environment, recipient, channel.id)) ?? {};
    const tenant = typeof data.ms_teams_tenant_id === 'string' && data.ms_teams_tenant_id ? data.ms_teams_tenant_id : undefined;
    return { channel, recipient, data, tenant, api: new MsTeamsLookups(channel.settings, this.deps.outbound, this.graphTokens) };
  }

  private static tenantNotSet = () => new DomainError('authorization', 'Microsoft Teams tenant ID not set.', 'forbidden');

  async authCheck(environment: string, channelId: string, reference: string) {
    const { tenant, api } = await this.connection(environment, channelId, reference);
    if (!tenant) return { connection: { ok: false, ms_teams_tenant_id: null, reason: 'Microsoft Teams tenant ID not set.' } };
    const answer = await api.authCheck(tenant);
    return {
      connection: answer.ok ? { ok: true, ms_teams_tenant_id: tenant } : { ok: false, ms_teams_tenant_id: tenant, reason: answer.reason },
    };
  }

  async teams(environment: string, channelId: string, reference: string, options: GraphQueryOptions = {}) {
    const { tenant, api } = await this.connection(environment, channelId, reference);
    if (!tenant) throw MsTeamsProviderLookups.tenantNotSet();
    const answer = await api.teams(tenant, options);
    if (!answer.ok) throw lookupError(answer, 'Microsoft Graph');
    return { ms_teams_teams: answer.teams, skip_token: answer.skipToken };
  }

  async channels(environment: string, channelId: string, reference: string, teamId: string, options: GraphQueryOptions = {}) {
    const { tenant, api } = await this.connection(environment, channelId, reference);
    if (!tenant) throw MsTeamsProviderLookups.tenantNotSet();
    const answer = await api.channels(tenant, teamId, options);
    if (!answer.ok) throw lookupError(answer, 'Microsoft Graph');
    return { ms_teams_channels: answer.channels };
  }

  /** Removes the tenant id from the recipient's channel data; the connections stay. */
  async revokeAccess(environment: string, channelId: string, reference: string) {
    const { channel, recipient, data, tenant } = await this.connection(environment, channelId, reference);
    if (!tenant) throw MsTeamsProviderLookups.tenantNotSet();
    await this.deps.setChannelData(environment, recipient, channel, {
      ...data,
      connections: Array.isArray(data.connections) ? data.connections : [],
      ms_teams_tenant_id: null,
    });
    return { ok: 'ok' };
  }
}
