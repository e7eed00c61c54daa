import { randomUUID } from 'node:crypto';
import KnockMgmt from '@knocklabs/mgmt';
import Knock from '@knocklabs/node';
import { addMember, ERASURE_KEYS } from '@notify/application';
import { startHttpPeer, type Peer } from '@notify/testing/peers';
import { microsoftGraphApi, slackWebApi } from '@notify/testing/provider-peers';
import { eventually } from '../support/runs';
import type { TestApp } from '../support/test-app';

/**
 * The contract test's calls: one case per reference operation the service implements, keyed by
 * the reference's `METHOD path`, each making a real call (through the official client where it
 * has the method, raw HTTP shaped as the client would send it otherwise) and answering the
 * exchange as it came over the wire. Cases share one fixture made once; a case that destroys
 * something makes its own target first, so the cases do not depend on their order.
 */

/** A response as it came over the wire. */
export interface Exchange {
  request: string;
  status: number;
  contentType: string | null;
  text: string;
}

const ENV = 'development';
/** A dynamic audience: a segment with a condition over the user and one over the time. */
const DYNAMIC_AUDIENCE = {
  type: 'dynamic',
  name: 'Recent pros',
  segments: [
    {
      conditions: [
        { property: 'recipient.plan', operator: 'equal_to', argument: 'pro' },
        { property: 'recipient.created_at', operator: 'greater_than', argument: '30_days_ago' },
      ],
    },
  ],
};
const env = { environment: ENV };
const broadcast = (name: string) => ({
  name,
  categories: ['announcements'],
  steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hello' } }],
});

/** A source whose one mapping triggers the contract workflow for the user the event names. */
const SOURCE = {
  name: 'Contract source',
  environment_settings: {
    [ENV]: {
      settings: { event_type_path: 'body.event' },
      mappings: [
        {
          event_type: 'contract.happened',
          action_type: 'workflows_trigger',
          action_parameters: { workflow: 'contract-alert', recipients: '{{ body.user.id }}', data: {} },
        },
      ],
    },
  },
};

const GOAL = {
  name: 'Contract goal',
  condition: { event: { event_type: 'integration_source', integration_source_key: 'contract-source', event_key: 'contract.happened' } },
};

export class Fixture {
  readonly knock: Knock;
  readonly mgmt: KnockMgmt;
  private recorded: Exchange[] = [];

  // Recipients and resources every case may read.
  readonly user = 'contract-ada';
  readonly other = 'contract-bob';
  readonly collection = 'contract-projects';
  readonly object = 'p1';
  readonly tenant = 'contract-acme';
  readonly workflow = 'contract-alert';
  inAppChannelId = '';
  pushChannelId = '';
  hookChannelId = '';
  guideChannelId = '';
  workflowRunId = '';
  recipientRunId = '';
  /** ada's in-app message and the webhook message of the same run. */
  messageId = '';
  hookMessageId = '';
  /** Sandboxed messages of every other channel type the reference's MessageContents describes. */
  channelMessageIds: string[] = [];
  bulkOperationId = '';
  /**
   * Schedules of ada's, so the listings answer entries. None of an object: an Object recipient
   * also satisfies the reference's User schema, so its `Recipient` oneOf refuses every object
   * recipient (ADR 0143).
   */
  scheduleIds: string[] = [];
  peer!: Peer;
  /** Slack's Web API and Microsoft's identity platform and Graph, for the provider lookups. */
  providerPeer!: Peer;
  slackChannelId = '';
  teamsChannelId = '';
  readonly slackTokens = new Set<string>();
  readonly teamsTenant = '7d1b2c3a-0000-4000-8000-0000000007e7';
  readonly tenantObject = JSON.stringify({ collection: 'contract-projects', object_id: 'p1' });

  constructor(readonly t: TestApp) {
    const record = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const res = await fetch(input, init);
      const text = await res.clone().text();
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      this.recorded.push({
        request: `${init?.method ?? 'GET'} ${url.pathname}${url.search}`,
        status: res.status,
        contentType: res.headers.get('content-type'),
        text,
      });
      return res;
    };
    this.knock = new Knock({ apiKey: t.env.secretKey, baseURL: t.url, maxRetries: 0, timeout: 20_000, fetch: record });
    this.mgmt = new KnockMgmt({ serviceToken: t.serviceToken, baseURL: t.url, maxRetries: 0, timeout: 20_000, fetch: record });
  }

  /** Runs one official client call and answers the exchange it made (errors are answers too). */
  async via(call: () => PromiseLike<unknown>): Promise<Exchange> {
    this.recorded = [];
    try {
      await call();
    } catch (error) {
      if (this.recorded.length === 0) throw error;
    }
    if (this.recorded.length !== 1) throw new Error(`expected one request, the client made ${this.recorded.length}`);
    return this.recorded[0];
  }

  /** A raw call: the secret key for the public API, the service token for `mgmt`. */
  async raw(method: string, path: string, body?: unknown, api: 'public' | 'mgmt' = 'public'): Promise<Exchange> {
    const key = api === 'mgmt' ? this.t.serviceToken : this.t.env.secretKey;
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.t.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { request: `${method} ${path}`, status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  }

  /** A raw call that must succeed (setup). */
  async must(method: string, path: string, body?: unknown, api: 'public' | 'mgmt' = 'public'): Promise<any> {
    const res = await this.raw(method, path, body, api);
    if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.text ? JSON.parse(res.text) : undefined;
  }

  /** A member of the account, added with the use case `notify members add` runs; its id once in the read model. */
  async member(email: string): Promise<string> {
    const outcome = await addMember(
      this.t.store,
      this.t.app.get(ERASURE_KEYS),
      { email, name: 'Contract', role: 'admin' },
      { environment: null, actor: 'contract' },
    );
    const id = outcome.state.current!.memberId;
    await eventually(async () => (await this.t.sql('SELECT id FROM rm_members WHERE id = $1', [id]))[0]);
    return id;
  }

  /** The contract source with one event received through its ingest endpoint. */
  async sourceEvent(): Promise<void> {
    const saved = await this.must('PUT', `/v1/sources/contract-source?environment=${ENV}`, { source: SOURCE }, 'mgmt');
    const { endpoint, ingest_key } = saved.source.environment_settings[ENV].settings;
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${ingest_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'contract.happened', user: { id: this.user } }),
    });
    if (res.status !== 202) throw new Error(`setup ingest: ${res.status} ${await res.text()}`);
  }

  /** A user of its own, for a case that deletes or merges it. */
  async scratchUser(prefix: string): Promise<string> {
    const id = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
    await this.knock.users.update(id, { name: prefix, email: `${id}@example.com` });
    return id;
  }

  /** Messages of the fixture's user in the messages read model, newest first. */
  async freshMessage(): Promise<string> {
    const { workflow_run_id } = await this.knock.workflows.trigger(this.workflow, { recipients: [this.user], data: { n: 2 } });
    const row = await eventually(
      async () => (await this.t.sql(`SELECT id FROM rm_messages WHERE workflow_run_id = $1 AND step_ref = 'feed'`, [workflow_run_id]))[0],
      20_000,
      'an in-app message',
    );
    return row.id as string;
  }

  /** A guide channel, the banner message type and a guide over them (idempotent); answers the guide's key. */
  async guide(key = 'contract-guide'): Promise<string> {
    const { channel } = await this.must(
      'PUT',
      '/v1/channels/contract-guides',
      { channel: { name: 'Guides', type: 'in_app_guide', provider: 'knock-guide', environment_settings: { [ENV]: {} } } },
      'mgmt',
    );
    this.guideChannelId = channel.id;
    await this.must('PUT', `/v1/message_types/contract-banner?environment=${ENV}`, { message_type: messageType }, 'mgmt');
    await this.must('PUT', `/v1/guides/${key}?environment=${ENV}`, { guide: guideBody('Contract guide') }, 'mgmt');
    return key;
  }

  /** An active guide the fixture's user is shown: the body of an engagement with its step. */
  async shownGuide(): Promise<{ channel_id: string; guide_id: string; guide_key: string; guide_step_ref: string }> {
    const key = await this.guide('contract-shown');
    await this.must('PUT', `/v1/guides/${key}/activate?environment=${ENV}`, { status: true }, 'mgmt');
    await this.knock.users.update(this.user, { plan: 'pro' } as never);
    // An earlier case may have archived it: engagement starts afresh.
    await this.must('PUT', `/v1/users/${this.user}/guides/engagements/reset`, { guide_key: key });
    const { entries } = await this.must('GET', `/v1/users/${this.user}/guides/${this.guideChannelId}`);
    const guide = (entries as { key: string; id: string }[]).find((e) => e.key === key);
    if (!guide) throw new Error(`setup: guide ${key} is not shown to ${this.user}`);
    return { channel_id: this.guideChannelId, guide_id: guide.id, guide_key: key, guide_step_ref: 'intro' };
  }

  /** Commits a fresh change in development and answers the id of that commit. */
  async latestCommit(): Promise<string> {
    const key = `contract-c${Math.random().toString(36).slice(2, 8)}`;
    await this.must(
      'PUT',
      `/v1/partials/${key}?environment=${ENV}&commit=true&commit_message=contract`,
      { partial: { name: 'C', type: 'text', content: key } },
      'mgmt',
    );
    const { entries } = await this.must(
      'GET',
      `/v1/commits?environment=${ENV}&resource_type=partial&resource_id=${key}`,
      undefined,
      'mgmt',
    );
    if (!entries?.[0]?.id) throw new Error(`no commit for ${key}`);
    return entries[0].id as string;
  }

  /** The fixture object connected to Slack with a fresh, valid token (a revoke case spends one). */
  async slackConnected(): Promise<void> {
    const token = `xoxb-contract-${Math.random().toString(36).slice(2, 10)}`;
    this.slackTokens.add(token);
    await this.knock.objects.setChannelData(this.collection, this.object, this.slackChannelId, {
      data: { connections: [{ channel_id: 'C0GENERAL1' }], token: { access_token: token } },
    } as never);
  }

  /** The fixture object connected to the Teams tenant (a revoke case removes it). */
  async teamsConnected(): Promise<void> {
    await this.knock.objects.setChannelData(this.collection, this.object, this.teamsChannelId, {
      data: { connections: [], ms_teams_tenant_id: this.teamsTenant },
    } as never);
  }

  private async lookupChannels(): Promise<void> {
    const app = { appId: '9b1c2d3e-0000-4000-8000-00000000b07a', password: 'contract-teams-password-0123', issued: [] as string[] };
    const slack = slackWebApi(this.slackTokens);
    const microsoft = microsoftGraphApi({ ...app, consented: new Set([this.teamsTenant]) });
    this.providerPeer = await startHttpPeer((req) =>
      req.url.startsWith('/slack/') ? slack({ ...req, url: req.url.slice(6) }) : microsoft(req),
    );
    const put = async (key: string, provider: string, provider_settings: Record<string, unknown>) =>
      (
        await this.must(
          'PUT',
          `/v1/channels/${key}`,
          { channel: { name: key, type: 'chat', provider, environment_settings: { [ENV]: { provider_settings } } } },
          'mgmt',
        )
      ).channel.id as string;
    this.slackChannelId = await put('contract-slack-app', 'slack', { base_url: `${this.providerPeer.url}/slack` });
    this.teamsChannelId = await put('contract-teams', 'ms-teams', {
      app_id: app.appId,
      app_password: app.password,
      login_url: this.providerPeer.url,
      graph_url: this.providerPeer.url,
    });
    await this.slackConnected();
    await this.teamsConnected();
  }

  async setUp(): Promise<void> {
    const { t, knock, mgmt } = this;
    this.peer = await startHttpPeer(() => ({ status: 200, json: { ok: true } }));

    const channels = await t.sql<{ id: string; key: string }>(`SELECT id, key FROM rm_channels WHERE key = 'in-app'`);
    this.inAppChannelId = channels[0].id;
    this.pushChannelId = (
      await this.must(
        'PUT',
        '/v1/channels/contract-push',
        { channel: { name: 'Push', type: 'push', provider: 'push-fcm', environment_settings: { [ENV]: { is_sandbox: true } } } },
        'mgmt',
      )
    ).channel.id;
    this.hookChannelId = (
      await this.must(
        'PUT',
        '/v1/channels/contract-hook',
        { channel: { name: 'Hook', type: 'http', provider: 'webhook', environment_settings: { [ENV]: {} } } },
        'mgmt',
      )
    ).channel.id;

    await knock.users.update(this.user, {
      name: 'Ada',
      email: 'ada@example.com',
      phone_number: '+15555550100',
      timezone: 'Europe/Paris',
      locale: 'en',
    } as never);
    await knock.users.update(this.other, { name: 'Bob', email: 'bob@example.com' });
    await knock.objects.set(this.collection, this.object, { name: 'Project 1' } as never);
    await knock.tenants.set(this.tenant, { name: 'Acme', settings: { branding: { primary_color: '#000000' } } } as never);
    await knock.objects.addSubscriptions(this.collection, this.object, { recipients: [this.user] });
    await this.lookupChannels();

    const { workflow } = await mgmt.workflows.upsert(this.workflow, {
      ...env,
      workflow: {
        name: 'Contract alert',
        categories: ['alerts'],
        steps: [
          {
            type: 'channel',
            ref: 'feed',
            channel_key: 'in-app',
            template: { markdown_body: 'Alert **{{ data.n }}** for {{ recipient.name }}', action_url: 'https://example.com/alerts' },
          },
          {
            type: 'channel',
            ref: 'hook',
            channel_key: 'contract-hook',
            template: { url: `${this.peer.url}/hook`, method: 'post', body: '{"n": {{ data.n }}}' },
          },
        ],
      } as never,
    });
    if (!workflow.valid) throw new Error(`fixture workflow is not valid: ${JSON.stringify(workflow)}`);
    await mgmt.workflows.activate(this.workflow, { ...env, status: true });

    const { workflow_run_id } = await knock.workflows.trigger(this.workflow, {
      recipients: [this.user],
      data: { n: 1 },
      tenant: this.tenant,
      actor: this.other,
    });
    this.workflowRunId = workflow_run_id;
    const rows = await eventually(
      async () => {
        const found = await t.sql(`SELECT id, run_id, step_ref, status FROM rm_messages WHERE workflow_run_id = $1 ORDER BY step_ref`, [
          workflow_run_id,
        ]);
        return found.length === 2 && found.every((m) => m.status !== 'queued') ? found : undefined;
      },
      30_000,
      'the fixture messages',
    );
    this.messageId = rows.find((m) => m.step_ref === 'feed').id;
    this.hookMessageId = rows.find((m) => m.step_ref === 'hook').id;
    this.recipientRunId = rows[0].run_id;
    await eventually(
      async () =>
        (await t.sql(`SELECT 1 FROM rm_workflow_recipient_runs WHERE id = $1 AND status = 'completed'`, [this.recipientRunId]))[0],
      30_000,
      'the fixture run to complete',
    );

    // Email, SMS, push and chat messages, created in sandbox mode (rendered, never sent).
    await this.must(
      'PUT',
      '/v1/channels/contract-email',
      {
        channel: {
          name: 'Email',
          type: 'email',
          provider: 'smtp',
          environment_settings: {
            [ENV]: { provider_settings: { host: '127.0.0.1', port: 2525 }, channel_settings: { from_address: 'hello@example.com' } },
          },
        },
      },
      'mgmt',
    );
    await this.must(
      'PUT',
      '/v1/channels/contract-sms',
      {
        channel: {
          name: 'SMS',
          type: 'sms',
          provider: 'twilio',
          environment_settings: { [ENV]: { provider_settings: { account_sid: 'AC0', auth_token: 'x', from: '+15005550006' } } },
        },
      },
      'mgmt',
    );
    const chatId = (
      await this.must(
        'PUT',
        '/v1/channels/contract-chat',
        { channel: { name: 'Chat', type: 'chat', provider: 'slack', environment_settings: { [ENV]: {} } } },
        'mgmt',
      )
    ).channel.id;
    await knock.users.setChannelData(this.user, this.pushChannelId, { data: { tokens: ['contract-token'] } });
    await knock.users.setChannelData(this.user, chatId, {
      data: { connections: [{ channel_id: 'C0123', access_token: 'xoxb-contract' }] },
    } as never);
    const channelSteps = [
      {
        type: 'channel',
        ref: 'email',
        channel_key: 'contract-email',
        template: { subject: 'Hi {{ recipient.name }}', html_body: '<p>Hi</p>', text_body: 'Hi', settings: {} },
      },
      { type: 'channel', ref: 'sms', channel_key: 'contract-sms', template: { text_body: 'Hi {{ recipient.name }}' } },
      {
        type: 'channel',
        ref: 'push',
        channel_key: 'contract-push',
        template: { title: 'Hi', text_body: 'Hi {{ recipient.name }}', settings: { delivery_type: 'content' } },
      },
      {
        type: 'channel',
        ref: 'chat',
        channel_key: 'contract-chat',
        template: { markdown_body: '*Hi* {{ recipient.name }}', summary: 'Hi' },
      },
    ];
    const { workflow: channelsWorkflow } = await mgmt.workflows.upsert('contract-channels', {
      ...env,
      workflow: { name: 'Contract channels', steps: channelSteps } as never,
    });
    if (!channelsWorkflow.valid) throw new Error(`fixture workflow is not valid: ${JSON.stringify(channelsWorkflow)}`);
    await mgmt.workflows.activate('contract-channels', { ...env, status: true });
    const sandboxed = await knock.workflows.trigger('contract-channels', {
      recipients: [this.user],
      settings: { sandbox_mode: true },
    } as never);
    this.channelMessageIds = (
      await eventually(
        async () => {
          const found = await t.sql(`SELECT id FROM rm_messages WHERE workflow_run_id = $1 ORDER BY step_ref`, [sandboxed.workflow_run_id]);
          return found.length === channelSteps.length ? found : undefined;
        },
        30_000,
        'the sandboxed channel messages',
      )
    ).map((m) => m.id as string);

    this.bulkOperationId = (await knock.users.bulk.identify({ users: [{ id: 'contract-bulk-1', name: 'Bulk' }] })).id;
    const created = await knock.schedules.create({
      workflow: this.workflow,
      recipients: [this.user],
      repeats: [dailyAt9],
      actor: this.other,
      data: { k: 'v' },
    });
    this.scheduleIds = created.map((s) => s.id);
  }

  async tearDown(): Promise<void> {
    await this.peer?.close();
    await this.providerPeer?.close();
  }
}

export type Case = (f: Fixture) => Promise<Exchange>;

const dailyAt9 = {
  __typename: 'ScheduleRepeat' as const,
  frequency: 'daily' as const,
  interval: 1,
  days: null,
  day_of_month: null,
  hours: 9,
  minutes: 0,
};

const prefs = {
  channel_types: { email: true, in_app_feed: true },
  categories: { alerts: { channel_types: { email: false } } },
  workflows: { 'contract-alert': true },
};

/** Public API (knock-api.openapi.json), by the reference's method and path. */
export const publicCases: Record<string, Case> = {
  // Provider lookups (issue 21): Slack's Web API and Microsoft Graph peers
  'GET /v1/providers/slack/{channel_id}/channels': async (f) => {
    await f.slackConnected();
    return f.via(() =>
      f.knock.providers.slack.listChannels(f.slackChannelId, { access_token_object: f.tenantObject, query_options: { limit: 2 } }),
    );
  },
  'GET /v1/providers/slack/{channel_id}/auth_check': async (f) => {
    await f.slackConnected();
    return f.via(() => f.knock.providers.slack.checkAuth(f.slackChannelId, { access_token_object: f.tenantObject }));
  },
  'PUT /v1/providers/slack/{channel_id}/revoke_access': async (f) => {
    await f.slackConnected();
    return f.via(() => f.knock.providers.slack.revokeAccess(f.slackChannelId, { access_token_object: f.tenantObject }));
  },
  'GET /v1/providers/ms-teams/{channel_id}/auth_check': async (f) => {
    await f.teamsConnected();
    return f.via(() => f.knock.providers.msTeams.checkAuth(f.teamsChannelId, { ms_teams_tenant_object: f.tenantObject }));
  },
  'GET /v1/providers/ms-teams/{channel_id}/teams': async (f) => {
    await f.teamsConnected();
    return f.via(() =>
      f.knock.providers.msTeams.listTeams(f.teamsChannelId, { ms_teams_tenant_object: f.tenantObject, query_options: { $top: 1 } }),
    );
  },
  'GET /v1/providers/ms-teams/{channel_id}/channels': async (f) => {
    await f.teamsConnected();
    return f.via(() =>
      f.knock.providers.msTeams.listChannels(f.teamsChannelId, {
        ms_teams_tenant_object: f.tenantObject,
        team_id: '172b0cce-e65d-44ce-9a49-91d9f2e8493a',
      }),
    );
  },
  'PUT /v1/providers/ms-teams/{channel_id}/revoke_access': async (f) => {
    await f.teamsConnected();
    return f.via(() => f.knock.providers.msTeams.revokeAccess(f.teamsChannelId, { ms_teams_tenant_object: f.tenantObject }));
  },
  // Granular preference updates (deprecated in the reference; no client methods)
  'PUT /v1/users/{user_id}/preferences/{id}/workflows': (f) =>
    f.raw('PUT', `/v1/users/${f.user}/preferences/default/workflows`, { workflows: { 'contract-alert': true } }),
  'PUT /v1/users/{user_id}/preferences/{id}/workflows/{key}': (f) =>
    f.raw('PUT', `/v1/users/${f.user}/preferences/default/workflows/contract-alert`, { subscribed: true }),
  'PUT /v1/users/{user_id}/preferences/{id}/categories': (f) =>
    f.raw('PUT', `/v1/users/${f.user}/preferences/default/categories`, { categories: { alerts: true } }),
  'PUT /v1/users/{user_id}/preferences/{id}/categories/{key}': (f) =>
    f.raw('PUT', `/v1/users/${f.user}/preferences/default/categories/alerts`, { channel_types: { email: true } }),
  'PUT /v1/users/{user_id}/preferences/{id}/channel_types': (f) =>
    f.raw('PUT', `/v1/users/${f.user}/preferences/default/channel_types`, { channel_types: { sms: true } }),
  'PUT /v1/users/{user_id}/preferences/{id}/channel_types/{type}': (f) =>
    f.raw('PUT', `/v1/users/${f.user}/preferences/default/channel_types/push`, { subscribed: true }),
  'PUT /v1/objects/{collection}/{object_id}/preferences/{id}/workflows': (f) =>
    f.raw('PUT', `/v1/objects/${f.collection}/${f.object}/preferences/default/workflows`, { workflows: { 'contract-alert': true } }),
  'PUT /v1/objects/{collection}/{object_id}/preferences/{id}/workflows/{key}': (f) =>
    f.raw('PUT', `/v1/objects/${f.collection}/${f.object}/preferences/default/workflows/contract-alert`, { subscribed: true }),
  'PUT /v1/objects/{collection}/{object_id}/preferences/{id}/categories': (f) =>
    f.raw('PUT', `/v1/objects/${f.collection}/${f.object}/preferences/default/categories`, { categories: { alerts: true } }),
  'PUT /v1/objects/{collection}/{object_id}/preferences/{id}/categories/{key}': (f) =>
    f.raw('PUT', `/v1/objects/${f.collection}/${f.object}/preferences/default/categories/alerts`, { channel_types: { email: true } }),
  'PUT /v1/objects/{collection}/{object_id}/preferences/{id}/channel_types': (f) =>
    f.raw('PUT', `/v1/objects/${f.collection}/${f.object}/preferences/default/channel_types`, { channel_types: { sms: true } }),
  'PUT /v1/objects/{collection}/{object_id}/preferences/{id}/channel_types/{type}': (f) =>
    f.raw('PUT', `/v1/objects/${f.collection}/${f.object}/preferences/default/channel_types/push`, { subscribed: true }),
  'GET /v1/users/{user_id}/preference_center/config': (f) => f.via(() => f.knock.users.preferenceCenter.getConfig(f.user)),
  'POST /v1/users/{user_id}/preference_center/signed_url': (f) => f.via(() => f.knock.users.preferenceCenter.generateSignedURL(f.user)),
  // Guides (ADR 0187)
  'GET /v1/users/{user_id}/guides/{channel_id}': async (f) => {
    await f.shownGuide();
    return f.via(() => f.knock.users.guides.getChannel(f.user, f.guideChannelId, { data: JSON.stringify({ page: 'home' }) }));
  },
  'PUT /v1/users/{user_id}/guides/messages/seen': async (f) => {
    const step = await f.shownGuide();
    return f.via(() => f.knock.users.guides.markMessageAsSeen(f.user, { ...step, content: { title: 'Hi' } }));
  },
  'PUT /v1/users/{user_id}/guides/messages/{message_id}/seen': async (f) => {
    const step = await f.shownGuide();
    return f.raw('PUT', `/v1/users/${f.user}/guides/messages/${randomUUID()}/seen`, { ...step, content: { title: 'Hi' } });
  },
  'PUT /v1/users/{user_id}/guides/messages/interacted': async (f) => {
    const step = await f.shownGuide();
    return f.via(() => f.knock.users.guides.markMessageAsInteracted(f.user, step));
  },
  'PUT /v1/users/{user_id}/guides/messages/{message_id}/interacted': async (f) => {
    const step = await f.shownGuide();
    return f.raw('PUT', `/v1/users/${f.user}/guides/messages/${randomUUID()}/interacted`, step);
  },
  'PUT /v1/users/{user_id}/guides/messages/archived': async (f) => {
    const step = await f.shownGuide();
    return f.via(() => f.knock.users.guides.markMessageAsArchived(f.user, step));
  },
  'PUT /v1/users/{user_id}/guides/messages/{message_id}/archived': async (f) => {
    const step = await f.shownGuide();
    return f.raw('PUT', `/v1/users/${f.user}/guides/messages/${randomUUID()}/archived`, step);
  },
  'DELETE /v1/users/{user_id}/guides/messages/archived': async (f) => {
    const step = await f.shownGuide();
    return f.via(() => f.knock.users.guides.unarchiveGuideMessage(f.user, { guide_key: step.guide_key }));
  },
  'PUT /v1/users/{user_id}/guides/engagements/reset': async (f) => {
    const step = await f.shownGuide();
    return f.via(() => f.knock.users.guides.resetGuideEngagements(f.user, { guide_key: step.guide_key }));
  },
  // Users
  'PUT /v1/users/{user_id}': (f) =>
    f.via(() => f.knock.users.update(f.user, { name: 'Ada', email: 'ada@example.com', phone_number: '+15555550100' })),
  'GET /v1/users/{user_id}': (f) => f.via(() => f.knock.users.get(f.user)),
  'GET /v1/users': (f) => f.via(() => f.knock.users.list({ page_size: 5 })),
  'DELETE /v1/users/{user_id}': async (f) => {
    const id = await f.scratchUser('contract-gone');
    return f.via(() => f.knock.users.delete(id));
  },
  'POST /v1/users/{user_id}/merge': async (f) => {
    const from = await f.scratchUser('contract-merged');
    const into = await f.scratchUser('contract-into');
    return f.via(() => f.knock.users.merge(into, { from_user_id: from }));
  },
  'GET /v1/users/{user_id}/messages': (f) => f.via(() => f.knock.users.listMessages(f.user, { page_size: 5 })),
  'GET /v1/users/{user_id}/schedules': (f) => f.via(() => f.knock.users.listSchedules(f.user)),
  'GET /v1/users/{user_id}/subscriptions': (f) => f.via(() => f.knock.users.listSubscriptions(f.user)),

  // Schedules
  'POST /v1/schedules': (f) =>
    f.via(() =>
      f.knock.schedules.create({
        workflow: f.workflow,
        recipients: [f.other],
        repeats: [{ ...dailyAt9, frequency: 'weekly', days: ['mon', 'fri'] }],
        tenant: f.tenant,
      }),
    ),
  'PUT /v1/schedules': (f) =>
    f.via(() => f.knock.schedules.update({ schedule_ids: f.scheduleIds, data: { k: 'w' }, ending_at: '2099-01-01T00:00:00Z' })),
  'GET /v1/schedules': (f) => f.via(() => f.knock.schedules.list({ workflow: f.workflow, page_size: 5 })),
  'DELETE /v1/schedules': async (f) => {
    const [doomed] = await f.knock.schedules.create({ workflow: f.workflow, recipients: [f.other], scheduled_at: '2099-01-01T00:00:00Z' });
    return f.via(() => f.knock.schedules.delete({ schedule_ids: [doomed.id] }));
  },
  'POST /v1/schedules/bulk/create': (f) =>
    f.via(() => f.knock.schedules.bulk.create({ schedules: [{ workflow: f.workflow, recipient: f.other, repeats: [dailyAt9] }] })),

  // Channel data
  'PUT /v1/users/{user_id}/channel_data/{channel_id}': (f) =>
    f.via(() => f.knock.users.setChannelData(f.user, f.pushChannelId, { data: { tokens: ['contract-token'] } })),
  'GET /v1/users/{user_id}/channel_data/{channel_id}': async (f) => {
    await f.knock.users.setChannelData(f.user, f.pushChannelId, {
      data: { devices: [{ token: 'contract-device', locale: 'en', timezone: 'Europe/Paris' }] },
    } as never);
    return f.via(() => f.knock.users.getChannelData(f.user, f.pushChannelId));
  },
  'DELETE /v1/users/{user_id}/channel_data/{channel_id}': async (f) => {
    const id = await f.scratchUser('contract-unset');
    await f.knock.users.setChannelData(id, f.pushChannelId, { data: { tokens: ['x'] } });
    return f.via(() => f.knock.users.unsetChannelData(id, f.pushChannelId));
  },
  'PUT /v1/objects/{collection}/{object_id}/channel_data/{channel_id}': (f) =>
    f.via(() => f.knock.objects.setChannelData(f.collection, f.object, f.pushChannelId, { data: { tokens: ['object-token'] } })),
  'GET /v1/objects/{collection}/{object_id}/channel_data/{channel_id}': async (f) => {
    await f.knock.objects.setChannelData(f.collection, f.object, f.pushChannelId, { data: { tokens: ['object-token'] } });
    return f.via(() => f.knock.objects.getChannelData(f.collection, f.object, f.pushChannelId));
  },
  'DELETE /v1/objects/{collection}/{object_id}/channel_data/{channel_id}': async (f) => {
    await f.knock.objects.set(f.collection, 'unset-me', { name: 'Unset' } as never);
    await f.knock.objects.setChannelData(f.collection, 'unset-me', f.pushChannelId, { data: { tokens: ['x'] } });
    return f.via(() => f.knock.objects.unsetChannelData(f.collection, 'unset-me', f.pushChannelId));
  },

  // Preferences
  'PUT /v1/users/{user_id}/preferences/{id}': (f) => f.via(() => f.knock.users.setPreferences(f.user, 'default', prefs as never)),
  'GET /v1/users/{user_id}/preferences/{id}': async (f) => {
    await f.knock.users.setPreferences(f.user, 'default', prefs as never);
    return f.via(() => f.knock.users.getPreferences(f.user, 'default'));
  },
  'GET /v1/users/{user_id}/preferences': (f) => f.via(() => f.knock.users.listPreferences(f.user)),
  'DELETE /v1/users/{user_id}/preferences/{id}': async (f) => {
    const id = await f.scratchUser('contract-prefs');
    await f.knock.users.setPreferences(id, 'default', prefs as never);
    return f.via(() => f.knock.users.unsetPreferences(id, 'default'));
  },
  'PUT /v1/objects/{collection}/{object_id}/preferences/{id}': (f) =>
    f.via(() => f.knock.objects.setPreferences(f.collection, f.object, 'default', prefs as never)),
  'GET /v1/objects/{collection}/{object_id}/preferences/{id}': async (f) => {
    await f.knock.objects.setPreferences(f.collection, f.object, 'default', prefs as never);
    return f.via(() => f.knock.objects.getPreferences(f.collection, f.object, 'default'));
  },
  'GET /v1/objects/{collection}/{object_id}/preferences': (f) => f.via(() => f.knock.objects.listPreferences(f.collection, f.object)),
  'DELETE /v1/objects/{collection}/{object_id}/preferences/{id}': async (f) => {
    await f.knock.objects.set(f.collection, 'prefs-gone', { name: 'Prefs' } as never);
    await f.knock.objects.setPreferences(f.collection, 'prefs-gone', 'default', prefs as never);
    return f.via(() => f.knock.objects.unsetPreferences(f.collection, 'prefs-gone', 'default'));
  },

  // Objects and subscriptions
  'PUT /v1/objects/{collection}/{id}': (f) =>
    f.via(() => f.knock.objects.set(f.collection, f.object, { name: 'Project 1', locale: 'en' } as never)),
  'GET /v1/objects/{collection}/{id}': (f) => f.via(() => f.knock.objects.get(f.collection, f.object)),
  'GET /v1/objects/{collection}': (f) => f.via(() => f.knock.objects.list(f.collection, { page_size: 5 })),
  'DELETE /v1/objects/{collection}/{id}': async (f) => {
    await f.knock.objects.set(f.collection, 'gone', { name: 'Gone' } as never);
    return f.via(() => f.knock.objects.delete(f.collection, 'gone'));
  },
  'GET /v1/objects/{collection}/{id}/messages': (f) => f.via(() => f.knock.objects.listMessages(f.collection, f.object)),
  'GET /v1/objects/{collection}/{id}/schedules': (f) => f.via(() => f.knock.objects.listSchedules(f.collection, f.object)),
  'GET /v1/objects/{collection}/{object_id}/subscriptions': (f) => f.via(() => f.knock.objects.listSubscriptions(f.collection, f.object)),
  'POST /v1/objects/{collection}/{object_id}/subscriptions': (f) =>
    f.via(() => f.knock.objects.addSubscriptions(f.collection, f.object, { recipients: [f.other], properties: { role: 'watcher' } })),
  'DELETE /v1/objects/{collection}/{object_id}/subscriptions': async (f) => {
    await f.knock.objects.addSubscriptions(f.collection, f.object, { recipients: ['contract-sub-gone'] });
    return f.via(() => f.knock.objects.deleteSubscriptions(f.collection, f.object, { recipients: ['contract-sub-gone'] }));
  },

  // Tenants
  'PUT /v1/tenants/{id}': (f) =>
    f.via(() =>
      f.knock.tenants.set(f.tenant, {
        name: 'Acme',
        channel_data: { [f.pushChannelId]: { tokens: ['tenant-token'] } },
        settings: {
          branding: { primary_color: '#000000', logo_url: 'https://example.com/logo.png' },
          preference_set: { channel_types: { email: true } },
        },
      } as never),
    ),
  'GET /v1/tenants/{id}': (f) => f.via(() => f.knock.tenants.get(f.tenant)),
  'GET /v1/tenants': (f) => f.via(() => f.knock.tenants.list({ page_size: 5 })),
  'DELETE /v1/tenants/{id}': async (f) => {
    await f.knock.tenants.set('contract-tenant-gone', { name: 'Gone' } as never);
    return f.via(() => f.knock.tenants.delete('contract-tenant-gone'));
  },

  // Audience members
  'POST /v1/audiences/{key}/members': (f) =>
    f.via(() =>
      f.knock.audiences.addMembers(
        'contract-audience',
        { members: [{ user: { id: f.user }, tenant: f.tenant }, { user: { id: f.other } }] },
        { query: { create_audience: true } },
      ),
    ),
  'GET /v1/audiences/{key}/members': async (f) => {
    await f.knock.audiences.addMembers(
      'contract-audience',
      { members: [{ user: { id: f.user }, tenant: f.tenant }] },
      { query: { create_audience: true } },
    );
    return f.via(() => f.knock.audiences.listMembers('contract-audience'));
  },
  'DELETE /v1/audiences/{key}/members': async (f) => {
    await f.knock.audiences.addMembers(
      'contract-audience-gone',
      { members: [{ user: { id: f.other } }] },
      { query: { create_audience: true } },
    );
    return f.via(() => f.knock.audiences.removeMembers('contract-audience-gone', { members: [{ user: { id: f.other } }] }));
  },

  // Bulk operations
  'POST /v1/users/bulk/identify': (f) => f.via(() => f.knock.users.bulk.identify({ users: [{ id: 'contract-bulk-2', name: 'Bulk 2' }] })),
  'POST /v1/users/bulk/delete': (f) => f.via(() => f.knock.users.bulk.delete({ user_ids: ['contract-bulk-2'] })),
  'POST /v1/users/bulk/preferences': (f) =>
    f.via(() => f.knock.users.bulk.setPreferences({ user_ids: [f.other], preferences: prefs as never })),
  'POST /v1/objects/{collection}/bulk/set': (f) =>
    f.via(() => f.knock.objects.bulk.set(f.collection, { objects: [{ id: 'bulk-1', name: 'Bulk' } as never] })),
  'POST /v1/objects/{collection}/bulk/delete': (f) => f.via(() => f.knock.objects.bulk.delete(f.collection, { object_ids: ['bulk-1'] })),
  'POST /v1/objects/{collection}/bulk/subscriptions/add': (f) =>
    f.via(() => f.knock.objects.bulk.addSubscriptions(f.collection, { subscriptions: [{ id: f.object, recipients: [f.other] }] } as never)),
  'POST /v1/objects/{collection}/bulk/subscriptions/delete': (f) =>
    f.via(() =>
      f.knock.objects.bulk.deleteSubscriptions(f.collection, { subscriptions: [{ id: f.object, recipients: [f.other] }] } as never),
    ),
  'POST /v1/tenants/bulk/set': (f) =>
    f.via(() => f.knock.tenants.bulk.set({ tenants: ['contract-bulk-tenant', { id: 'contract-bulk-tenant-2', name: 'Two' }] } as never)),
  'POST /v1/tenants/bulk/delete': (f) => f.via(() => f.knock.tenants.bulk.delete({ tenant_ids: ['contract-bulk-tenant'] })),
  'GET /v1/bulk_operations/{id}': (f) => f.via(() => f.knock.bulkOperations.get(f.bulkOperationId)),

  // Messages
  'GET /v1/messages': (f) => f.via(() => f.knock.messages.list({ page_size: 5 })),
  'GET /v1/messages/{message_id}': (f) => f.via(() => f.knock.messages.get(f.messageId)),
  'GET /v1/messages/{message_id}/content': (f) => f.via(() => f.knock.messages.getContent(f.messageId)),
  // Every content type the reference's MessageContents has (a webhook message's content is not one; ADR 0117).
  'GET /v1/messages/batch/content': (f) =>
    f.via(() => f.knock.messages.batch.getContent({ message_ids: [f.messageId, ...f.channelMessageIds] })),
  'GET /v1/messages/{message_id}/events': (f) => f.via(() => f.knock.messages.listEvents(f.hookMessageId)),
  'GET /v1/messages/{message_id}/delivery_logs': (f) => f.via(() => f.knock.messages.listDeliveryLogs(f.hookMessageId)),
  'GET /v1/messages/{message_id}/activities': (f) => f.via(() => f.knock.messages.listActivities(f.messageId)),
  'PUT /v1/messages/{message_id}/seen': (f) => f.via(() => f.knock.messages.markAsSeen(f.messageId)),
  'DELETE /v1/messages/{message_id}/seen': (f) => f.via(() => f.knock.messages.markAsUnseen(f.messageId)),
  'DELETE /v1/messages/{message_id}/unseen': (f) => f.raw('DELETE', `/v1/messages/${f.messageId}/unseen`),
  'PUT /v1/messages/{message_id}/read': (f) => f.via(() => f.knock.messages.markAsRead(f.messageId)),
  'DELETE /v1/messages/{message_id}/read': (f) => f.via(() => f.knock.messages.markAsUnread(f.messageId)),
  'DELETE /v1/messages/{message_id}/unread': (f) => f.raw('DELETE', `/v1/messages/${f.messageId}/unread`),
  'PUT /v1/messages/{message_id}/interacted': (f) =>
    f.via(() => f.knock.messages.markAsInteracted(f.messageId, { metadata: { button: 'primary' } })),
  'PUT /v1/messages/{message_id}/archived': async (f) => {
    const id = await f.freshMessage();
    return f.via(() => f.knock.messages.archive(id));
  },
  'DELETE /v1/messages/{message_id}/archived': async (f) => {
    const id = await f.freshMessage();
    await f.knock.messages.archive(id);
    return f.via(() => f.knock.messages.unarchive(id));
  },
  'DELETE /v1/messages/{message_id}/unarchived': async (f) => {
    const id = await f.freshMessage();
    await f.knock.messages.archive(id);
    return f.raw('DELETE', `/v1/messages/${id}/unarchived`);
  },
  'POST /v1/messages/batch/seen': (f) => f.via(() => f.knock.messages.batch.markAsSeen({ message_ids: [f.messageId] })),
  'POST /v1/messages/batch/unseen': (f) => f.via(() => f.knock.messages.batch.markAsUnseen({ message_ids: [f.messageId] })),
  'POST /v1/messages/batch/read': (f) => f.via(() => f.knock.messages.batch.markAsRead({ message_ids: [f.messageId] })),
  'POST /v1/messages/batch/unread': (f) => f.via(() => f.knock.messages.batch.markAsUnread({ message_ids: [f.messageId] })),
  'POST /v1/messages/batch/interacted': (f) =>
    f.via(() => f.knock.messages.batch.markAsInteracted({ message_ids: [f.messageId], metadata: { via: 'batch' } })),
  'POST /v1/messages/batch/archived': async (f) => {
    const id = await f.freshMessage();
    return f.via(() => f.knock.messages.batch.archive({ message_ids: [id] }));
  },
  'POST /v1/messages/batch/unarchived': async (f) => {
    const id = await f.freshMessage();
    await f.knock.messages.archive(id);
    return f.via(() => f.knock.messages.batch.unarchive({ message_ids: [id] }));
  },
  'POST /v1/channels/{channel_id}/messages/bulk/{action}': (f) =>
    f.via(() => f.knock.channels.bulk.updateMessageStatus(f.inAppChannelId, 'seen', { recipient_ids: [f.other] })),

  // Feeds
  'GET /v1/users/{user_id}/feeds/{id}': (f) => f.via(() => f.knock.users.feeds.listItems(f.user, f.inAppChannelId, { page_size: 5 })),
  'GET /v1/users/{user_id}/feeds/{id}/settings': (f) => f.via(() => f.knock.users.feeds.getSettings(f.user, f.inAppChannelId)),

  // Workflows and runs
  'POST /v1/workflows/{key}/trigger': (f) => f.via(() => f.knock.workflows.trigger(f.workflow, { recipients: [f.other], data: { n: 3 } })),
  'POST /v1/integrations/census/custom-destination': (f) =>
    f.raw('POST', '/v1/integrations/census/custom-destination', { jsonrpc: '2.0', id: 'contract-1', method: 'list_objects', params: {} }),
  'POST /v1/integrations/hightouch/embedded-destination': (f) =>
    f.raw('POST', '/v1/integrations/hightouch/embedded-destination', {
      jsonrpc: '2.0',
      id: 'contract-1',
      method: 'list_objects',
      params: {},
    }),
  'POST /v1/notify': (f) => f.raw('POST', '/v1/notify', { name: f.workflow, actor: f.other, recipients: [f.user], data: { n: 5 } }),
  'POST /v1/notify/cancel': (f) => f.raw('POST', '/v1/notify/cancel', { name: f.workflow, cancellation_key: 'contract-notify-nothing' }),
  'POST /v1/workflows/{key}/cancel': (f) =>
    f.via(() => f.knock.workflows.cancel(f.workflow, { cancellation_key: 'contract-nothing-to-cancel' })),
  'GET /v1/workflow_recipient_runs': (f) => f.via(() => f.knock.workflowRecipientRuns.list({ workflow: f.workflow } as never)),
  'GET /v1/workflow_recipient_runs/{id}': (f) => f.via(() => f.knock.workflowRecipientRuns.get(f.recipientRunId)),
};

const partial = { name: 'Footer', type: 'html' as const, content: '<p>Sent to {{ recipient.email }}</p>' };
const layout = { name: 'Plain', html_layout: '<main>{{ content }}</main>', text_layout: '{{ content }}' };
const messageType = {
  name: 'Banner',
  description: 'A dismissible banner',
  preview: '<div>{{ title }}</div>',
  variants: [{ key: 'default', name: 'Default', fields: [{ type: 'text', key: 'title', label: 'Title', settings: { required: true } }] }],
};
const guideBody = (name: string) => ({
  name,
  channel_key: 'contract-guides',
  steps: [{ ref: 'intro', schema_key: 'contract-banner', schema_semver: '1.0.0', schema_variant_key: 'default', values: { title: 'Hi' } }],
  activation_url_patterns: [{ directive: 'allow', pathname: '/dashboard/*' }],
  target_property_conditions: { all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'pro' }] },
});
const workflowBody = (name: string) => ({
  name,
  description: null,
  steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi {{ recipient.name }}' } }],
});

/** Management API (knock-mgmt-api.openapi.yml), by the reference's method and path. */
export const managementCases: Record<string, Case> = {
  // Preference categories (account-wide) and the preference center (per environment): no client methods, raw calls
  'GET /v1/preference_categories': async (f) => {
    await f.must('PUT', '/v1/preference_categories/contract-news', undefined, 'mgmt');
    return f.raw('GET', '/v1/preference_categories', undefined, 'mgmt');
  },
  'PUT /v1/preference_categories/{name}': (f) => f.raw('PUT', '/v1/preference_categories/contract-news', undefined, 'mgmt'),
  'DELETE /v1/preference_categories/{name}': async (f) => {
    await f.must('PUT', '/v1/preference_categories/contract-gone', undefined, 'mgmt');
    return f.raw('DELETE', '/v1/preference_categories/contract-gone', undefined, 'mgmt');
  },
  'GET /v1/preference_center': (f) => f.raw('GET', `/v1/preference_center?environment=${ENV}`, undefined, 'mgmt'),
  'PUT /v1/preference_center': (f) =>
    f.raw(
      'PUT',
      `/v1/preference_center?environment=${ENV}`,
      {
        config: {
          title: 'Prefs',
          body: 'Pick',
          rows: [{ type: 'category', name: 'Alerts', identifier: 'alerts', channel_types: ['email'] }],
        },
        enabled: true,
      },
      'mgmt',
    ),
  'PUT /v1/preference_center/reset': (f) => f.raw('PUT', `/v1/preference_center/reset?environment=${ENV}`, undefined, 'mgmt'),
  // Channels and channel groups
  'GET /v1/channels': (f) => f.via(() => f.mgmt.channels.list()),
  'GET /v1/channels/{channel_key}': (f) => f.via(() => f.mgmt.channels.retrieve('contract-push')),
  'PUT /v1/channel_groups/{channel_group_key}': (f) =>
    f.via(() =>
      f.mgmt.channelGroups.upsert('contract-group', {
        channel_group: {
          name: 'Push group',
          channel_type: 'push',
          operator: 'any',
          channel_rules: [{ channel_key: 'contract-push', rule_type: 'always' }],
        },
      } as never),
    ),
  'GET /v1/channel_groups/{channel_group_key}': async (f) => {
    await f.must(
      'PUT',
      '/v1/channel_groups/contract-group',
      {
        channel_group: { name: 'Push group', channel_type: 'push', channel_rules: [{ channel_key: 'contract-push', rule_type: 'always' }] },
      },
      'mgmt',
    );
    return f.via(() => f.mgmt.channelGroups.retrieve('contract-group'));
  },
  'GET /v1/channel_groups': (f) => f.via(() => f.mgmt.channelGroups.list()),
  'DELETE /v1/channel_groups/{channel_group_key}': async (f) => {
    await f.must(
      'PUT',
      '/v1/channel_groups/contract-group-gone',
      { channel_group: { name: 'Gone', channel_type: 'push', channel_rules: [{ channel_key: 'contract-push', rule_type: 'always' }] } },
      'mgmt',
    );
    return f.via(() => f.mgmt.channelGroups.delete('contract-group-gone'));
  },

  // Branches (the mgmt client has no rebase: raw, as the reference shapes it)
  'POST /v1/branches/{branch_slug}': (f) => f.via(() => f.mgmt.branches.create('contract-branch', env)),
  'GET /v1/branches/{branch_slug}': async (f) => {
    await f.must('POST', '/v1/branches/contract-read?environment=development', undefined, 'mgmt');
    return f.via(() => f.mgmt.branches.retrieve('contract-read', env));
  },
  'GET /v1/branches': async (f) => {
    await f.must('POST', '/v1/branches/contract-listed?environment=development', undefined, 'mgmt');
    return f.via(() => f.mgmt.branches.list(env));
  },
  'PUT /v1/branches/{branch_slug}/rebase': async (f) => {
    await f.must('POST', '/v1/branches/contract-rebased?environment=development', undefined, 'mgmt');
    return f.raw('PUT', '/v1/branches/contract-rebased/rebase?environment=development', undefined, 'mgmt');
  },
  'DELETE /v1/branches/{branch_slug}': async (f) => {
    await f.must('POST', '/v1/branches/contract-gone?environment=development', undefined, 'mgmt');
    return f.via(() => f.mgmt.branches.delete('contract-gone', env));
  },
  // Assets (the mgmt client has no assets resource; uploaded with this service's own route)
  'GET /v1/assets': async (f) => {
    await f.must('POST', '/v1/assets', { filename: 'contract.png', mime_type: 'image/png', content: 'iVBORw0KGgo=' }, 'mgmt');
    return f.raw('GET', '/v1/assets', undefined, 'mgmt');
  },
  // Members (added as the operator CLI does: the reference has no route that adds one)
  'GET /v1/members': async (f) => {
    await f.member('contract-listed@example.com');
    return f.via(() => f.mgmt.members.list());
  },
  'GET /v1/members/{id}': async (f) => {
    const id = await f.member('contract-read@example.com');
    return f.via(() => f.mgmt.members.retrieve(id));
  },
  'DELETE /v1/members/{id}': async (f) => {
    const id = await f.member('contract-gone@example.com');
    return f.via(() => f.mgmt.members.delete(id));
  },
  // Tags (the mgmt client has no tags resource: raw calls shaped as the reference has them)
  'PUT /v1/tags/{name}': (f) => f.raw('PUT', '/v1/tags/contract-billing', { tag: { description: 'Billing', color: '#3B82F6' } }, 'mgmt'),
  'GET /v1/tags': async (f) => {
    await f.must('PUT', '/v1/tags/contract-listed', { tag: { description: null } }, 'mgmt');
    return f.raw('GET', '/v1/tags', undefined, 'mgmt');
  },
  'DELETE /v1/tags/{name}': async (f) => {
    await f.must('PUT', '/v1/tags/contract-gone', { tag: {} }, 'mgmt');
    return f.raw('DELETE', '/v1/tags/contract-gone', undefined, 'mgmt');
  },

  // Item schemas (the mgmt client has no schemas resource)
  'PUT /v1/schemas/{item_type}': (f) =>
    f.raw(
      'PUT',
      `/v1/schemas/object?environment=${ENV}&collection=contract-schema`,
      { properties: [{ key: 'budget', type: 'number' }] },
      'mgmt',
    ),
  'GET /v1/schemas/{item_type}': (f) => f.raw('GET', `/v1/schemas/tenant?environment=${ENV}`, undefined, 'mgmt'),
  'GET /v1/schemas': async (f) => {
    await f.must('PUT', `/v1/schemas/object?environment=${ENV}&collection=contract-listed`, { properties: [{ key: 'name' }] }, 'mgmt');
    return f.raw('GET', `/v1/schemas?environment=${ENV}`, undefined, 'mgmt');
  },
  'PUT /v1/schemas/{item_type}/validate': (f) =>
    f.raw('PUT', `/v1/schemas/object/validate?environment=${ENV}&collection=contract-schema`, { properties: [{ key: 'owner' }] }, 'mgmt'),

  // Workflows
  'PUT /v1/workflows/{workflow_key}': (f) =>
    f.via(() => f.mgmt.workflows.upsert('contract-mgmt', { ...env, workflow: workflowBody('Managed') as never })),
  'GET /v1/workflows/{workflow_key}': (f) => f.via(() => f.mgmt.workflows.retrieve(f.workflow, env)),
  'GET /v1/workflows': (f) => f.via(() => f.mgmt.workflows.list(env)),
  'PUT /v1/workflows/{workflow_key}/validate': (f) =>
    f.via(() => f.mgmt.workflows.validate('contract-mgmt', { ...env, workflow: workflowBody('Managed v2') as never })),
  'PUT /v1/workflows/{workflow_key}/activate': async (f) => {
    await f.mgmt.workflows.upsert('contract-activate', { ...env, workflow: workflowBody('Activate') as never });
    return f.via(() => f.mgmt.workflows.activate('contract-activate', { ...env, status: true }));
  },
  'PUT /v1/workflows/{workflow_key}/run': (f) =>
    f.via(() => f.mgmt.workflows.run(f.workflow, { ...env, recipients: [f.other], data: { n: 4 } } as never)),
  'POST /v1/workflows/{workflow_key}/steps/{step_ref}/preview_template': (f) =>
    f.via(() =>
      f.mgmt.workflows.steps.previewTemplate('feed', { ...env, workflow_key: f.workflow, recipient: f.user, data: { n: 5 } } as never),
    ),

  // Partials, layouts, message types, translations
  'PUT /v1/partials/{partial_key}': (f) => f.via(() => f.mgmt.partials.upsert('contract-footer', { ...env, partial })),
  'GET /v1/partials/{partial_key}': async (f) => {
    await f.mgmt.partials.upsert('contract-footer', { ...env, partial });
    return f.via(() => f.mgmt.partials.retrieve('contract-footer', env));
  },
  'GET /v1/partials': (f) => f.via(() => f.mgmt.partials.list(env)),
  'PUT /v1/partials/{partial_key}/validate': (f) =>
    f.via(() => f.mgmt.partials.validate('contract-footer', { ...env, partial: { ...partial, name: 'Footer 2' } })),
  'POST /v1/partials/preview': (f) =>
    f.raw(
      'POST',
      `/v1/partials/preview?environment=${ENV}`,
      { partial: { name: 'P', type: 'markdown', content: '**{{ who }}**' }, data: { who: 'you' } },
      'mgmt',
    ),
  'PUT /v1/email_layouts/{email_layout_key}': (f) =>
    f.via(() => f.mgmt.emailLayouts.upsert('contract-layout', { ...env, email_layout: layout })),
  'GET /v1/email_layouts/{email_layout_key}': async (f) => {
    await f.mgmt.emailLayouts.upsert('contract-layout', { ...env, email_layout: layout });
    return f.via(() => f.mgmt.emailLayouts.retrieve('contract-layout', env));
  },
  'GET /v1/email_layouts': (f) => f.via(() => f.mgmt.emailLayouts.list(env)),
  'PUT /v1/email_layouts/{email_layout_key}/validate': (f) =>
    f.via(() => f.mgmt.emailLayouts.validate('contract-layout', { ...env, email_layout: { ...layout, name: 'Plain 2' } })),
  'POST /v1/email_layouts/preview': (f) =>
    f.raw('POST', `/v1/email_layouts/preview?environment=${ENV}`, { recipient: f.user, email_layout: layout }, 'mgmt'),
  'POST /v1/templates/preview': (f) =>
    f.raw(
      'POST',
      `/v1/templates/preview?environment=${ENV}`,
      {
        channel_type: 'email',
        recipient: f.user,
        template: { subject: 'Hi {{ recipient.name }}', html_body: '<p>Hi</p>', settings: { layout_key: 'contract-layout' } },
      },
      'mgmt',
    ),
  'PUT /v1/message_types/{message_type_key}': (f) =>
    f.via(() => f.mgmt.messageTypes.upsert('contract-banner', { ...env, message_type: messageType as never })),
  'GET /v1/message_types/{message_type_key}': async (f) => {
    await f.mgmt.messageTypes.upsert('contract-banner', { ...env, message_type: messageType as never });
    return f.via(() => f.mgmt.messageTypes.retrieve('contract-banner', env));
  },
  'GET /v1/message_types': (f) => f.via(() => f.mgmt.messageTypes.list(env)),
  'PUT /v1/message_types/{message_type_key}/validate': (f) =>
    f.via(() => f.mgmt.messageTypes.validate('contract-banner', { ...env, message_type: { ...messageType, name: 'Banner 2' } as never })),
  'PUT /v1/translations/{locale_code}': (f) =>
    f.via(() =>
      f.mgmt.translations.upsert('fr', {
        ...env,
        namespace: 'contract',
        translation: { format: 'json', content: '{"hello":"Bonjour"}' },
      } as never),
    ),
  'GET /v1/translations/{locale_code}': async (f) => {
    await f.mgmt.translations.upsert('fr', {
      ...env,
      namespace: 'contract',
      translation: { format: 'json', content: '{"hello":"Bonjour"}' },
    } as never);
    return f.via(() => f.mgmt.translations.retrieve('fr', { ...env, namespace: 'contract' } as never));
  },
  'GET /v1/translations': (f) => f.via(() => f.mgmt.translations.list(env)),
  'PUT /v1/translations/{locale_code}/validate': (f) =>
    f.via(() =>
      f.mgmt.translations.validate('fr', {
        ...env,
        namespace: 'contract',
        translation: { format: 'json', content: '{"hello":"Salut"}' },
      } as never),
    ),

  // Account and environments
  'GET /v1/whoami': (f) => f.via(() => f.mgmt.auth.verify()),
  'POST /v1/api_keys/exchange': (f) => f.via(() => f.mgmt.apiKeys.exchange(env)),
  'GET /v1/environments': (f) => f.via(() => f.mgmt.environments.list()),
  'GET /v1/environments/{environment_slug}': (f) => f.via(() => f.mgmt.environments.retrieve(ENV)),

  // Audiences (both variants: static and dynamic; and a static one made by a members call, ADR 0270)
  'GET /v1/audiences': async (f) => {
    await f.mgmt.audiences.upsert('contract-static', { ...env, audience: { type: 'static', name: 'Contract' } } as never);
    await f.mgmt.audiences.upsert('contract-dynamic', { ...env, audience: DYNAMIC_AUDIENCE } as never);
    await f.knock.audiences.addMembers('contract-made', { members: [{ user: { id: f.other } }] }, { query: { create_audience: true } });
    return f.via(() => f.mgmt.audiences.list(env));
  },
  'PUT /v1/audiences/{audience_key}': (f) =>
    f.via(() => f.mgmt.audiences.upsert('contract-dynamic', { ...env, audience: DYNAMIC_AUDIENCE } as never)),
  'GET /v1/audiences/{audience_key}': async (f) => {
    await f.mgmt.audiences.upsert('contract-static', { ...env, audience: { type: 'static', name: 'Contract' } } as never);
    return f.via(() => f.mgmt.audiences.retrieve('contract-static', env));
  },
  'PUT /v1/audiences/{audience_key}/validate': (f) =>
    f.via(() => f.mgmt.audiences.validate('contract-static', { ...env, audience: { type: 'static', name: 'Contract 2' } } as never)),
  'DELETE /v1/audiences/{audience_key}': async (f) => {
    await f.mgmt.audiences.upsert('contract-archived', { ...env, audience: { type: 'static', name: 'Archived' } } as never);
    return f.via(() => f.mgmt.audiences.archive('contract-archived', env));
  },
  // Broadcasts (ADR 0172): sends are scheduled far off, so that no contract case sends to anyone.
  'GET /v1/broadcasts': async (f) => {
    await f.mgmt.broadcasts.upsert('contract-broadcast', { ...env, broadcast: broadcast('Contract') } as never);
    return f.via(() => f.mgmt.broadcasts.list(env));
  },
  'GET /v1/broadcasts/{broadcast_key}': async (f) => {
    await f.mgmt.broadcasts.upsert('contract-broadcast', { ...env, broadcast: broadcast('Contract') } as never);
    return f.via(() => f.mgmt.broadcasts.retrieve('contract-broadcast', env));
  },
  'PUT /v1/broadcasts/{broadcast_key}': (f) =>
    f.via(() => f.mgmt.broadcasts.upsert('contract-broadcast', { ...env, broadcast: broadcast('Contract') } as never)),
  'PUT /v1/broadcasts/{broadcast_key}/validate': (f) =>
    f.via(() => f.mgmt.broadcasts.validate('contract-broadcast', { ...env, broadcast: broadcast('Contract 2') } as never)),
  'PUT /v1/broadcasts/{broadcast_key}/send': async (f) => {
    const key = `contract-send-${Date.now()}`;
    await f.mgmt.broadcasts.upsert(key, { ...env, broadcast: broadcast('Send') } as never);
    return f.via(() => f.mgmt.broadcasts.send(key, { ...env, send_at: '2999-01-01T00:00:00Z' }));
  },
  'PUT /v1/broadcasts/{broadcast_key}/cancel': async (f) => {
    const key = `contract-cancel-${Date.now()}`;
    await f.mgmt.broadcasts.upsert(key, { ...env, broadcast: broadcast('Cancel') } as never);
    await f.mgmt.broadcasts.send(key, { ...env, send_at: '2999-01-01T00:00:00Z' });
    return f.via(() => f.mgmt.broadcasts.cancel(key, env));
  },
  // Guides (ADR 0186)
  'GET /v1/guides': async (f) => {
    await f.guide();
    return f.via(() => f.mgmt.guides.list(env));
  },
  'GET /v1/guides/{guide_key}': async (f) => {
    const key = await f.guide();
    return f.via(() => f.mgmt.guides.retrieve(key, env));
  },
  'PUT /v1/guides/{guide_key}': async (f) => {
    await f.guide();
    return f.via(() => f.mgmt.guides.upsert('contract-guide', { ...env, guide: guideBody('Contract guide 2') as never }));
  },
  'PUT /v1/guides/{guide_key}/validate': async (f) => {
    await f.guide();
    return f.via(() => f.mgmt.guides.validate('contract-guide', { ...env, guide: guideBody('Contract guide 3') as never }));
  },
  'PUT /v1/guides/{guide_key}/activate': async (f) => {
    const key = await f.guide();
    return f.via(() => f.mgmt.guides.activate(key, { ...env, from: '2026-01-01T00:00:00Z', until: '2999-01-01T00:00:00Z' }));
  },
  'DELETE /v1/guides/{guide_key}': async (f) => {
    const key = await f.guide('contract-guide-archived');
    return f.via(() => f.mgmt.guides.archive(key));
  },

  // Sources (ADR 0195): @knocklabs/mgmt has no sources resource, so these are raw calls shaped as the reference has them.
  'GET /v1/sources': async (f) => {
    await f.must('PUT', `/v1/sources/contract-source?environment=${ENV}`, { source: SOURCE }, 'mgmt');
    return f.raw('GET', '/v1/sources?include=environment_settings', undefined, 'mgmt');
  },
  'GET /v1/sources/{key}': async (f) => {
    await f.must('PUT', `/v1/sources/contract-source?environment=${ENV}`, { source: SOURCE }, 'mgmt');
    return f.raw('GET', `/v1/sources/contract-source?environment=${ENV}`, undefined, 'mgmt');
  },
  'PUT /v1/sources/{key}': (f) => f.raw('PUT', `/v1/sources/contract-source?environment=${ENV}`, { source: SOURCE }, 'mgmt'),
  'GET /v1/sources/{key}/status': async (f) => {
    await f.must('PUT', `/v1/sources/contract-source?environment=${ENV}`, { source: SOURCE }, 'mgmt');
    return f.raw('GET', `/v1/sources/contract-source/status?environment=${ENV}`, undefined, 'mgmt');
  },
  'POST /v1/sources/{key}/rehearse': async (f) => {
    await f.must('PUT', `/v1/sources/contract-source?environment=${ENV}`, { source: SOURCE }, 'mgmt');
    const payload = { body: { event: 'contract.happened', user: { id: f.user } }, headers: {} };
    return f.raw('POST', `/v1/sources/contract-source/rehearse?environment=${ENV}`, { payload }, 'mgmt');
  },
  'GET /v1/sources/{key}/events': async (f) => {
    await f.sourceEvent();
    return f.raw('GET', `/v1/sources/contract-source/events?environment=${ENV}`, undefined, 'mgmt');
  },
  'GET /v1/sources/{key}/logs': async (f) => {
    await f.sourceEvent();
    return f.raw('GET', `/v1/sources/contract-source/logs?environment=${ENV}`, undefined, 'mgmt');
  },
  // Goals (ADR 0196): no goals resource in @knocklabs/mgmt either.
  'GET /v1/goals': async (f) => {
    await f.must('PUT', `/v1/goals/contract-goal?environment=${ENV}`, { goal: GOAL }, 'mgmt');
    return f.raw('GET', `/v1/goals?environment=${ENV}`, undefined, 'mgmt');
  },
  'GET /v1/goals/{goal_key}': async (f) => {
    await f.must('PUT', `/v1/goals/contract-goal?environment=${ENV}`, { goal: GOAL }, 'mgmt');
    return f.raw('GET', `/v1/goals/contract-goal?environment=${ENV}`, undefined, 'mgmt');
  },
  'PUT /v1/goals/{goal_key}': (f) => f.raw('PUT', `/v1/goals/contract-goal?environment=${ENV}`, { goal: GOAL }, 'mgmt'),
  'PUT /v1/goals/{goal_key}/validate': (f) =>
    f.raw('PUT', `/v1/goals/contract-goal/validate?environment=${ENV}`, { goal: { ...GOAL, name: 'Validated' } }, 'mgmt'),
  'DELETE /v1/goals/{goal_key}': async (f) => {
    await f.must('PUT', `/v1/goals/contract-archived-goal?environment=${ENV}`, { goal: GOAL }, 'mgmt');
    return f.raw('DELETE', `/v1/goals/contract-archived-goal?environment=${ENV}`, undefined, 'mgmt');
  },
  'POST /v1/goals/{goal_key}/clone': async (f) => {
    await f.must('PUT', `/v1/goals/contract-goal?environment=${ENV}`, { goal: GOAL }, 'mgmt');
    const clone = { key: `contract-clone-${Date.now()}`, name: 'Cloned', environment: ENV };
    return f.raw('POST', `/v1/goals/contract-goal/clone?environment=${ENV}`, { clone }, 'mgmt');
  },
  'GET /v1/source_providers': (f) => f.raw('GET', '/v1/source_providers', undefined, 'mgmt'),
  'GET /v1/source_providers/{key}': (f) => f.raw('GET', '/v1/source_providers/http', undefined, 'mgmt'),

  // Variables
  'GET /v1/variables': async (f) => {
    await f.must('PUT', '/v1/variables/contract_url', { variable: { value: 'https://app.example' } }, 'mgmt');
    return f.via(() => f.mgmt.variables.list(env as never));
  },
  'GET /v1/variables/{key}': async (f) => {
    await f.must('PUT', '/v1/variables/contract_url', { variable: { value: 'https://app.example' } }, 'mgmt');
    return f.via(() => f.mgmt.variables.retrieve('contract_url', env as never));
  },

  // Commits
  'PUT /v1/commits': async (f) => {
    await f.mgmt.partials.upsert('contract-commit', { ...env, partial: { ...partial, content: `<p>${Date.now()}</p>` } });
    return f.via(() => f.mgmt.commits.commitAll({ ...env, commit_message: 'Contract commit' }));
  },
  'GET /v1/commits': (f) => f.via(() => f.mgmt.commits.list(env)),
  'GET /v1/commits/{id}': async (f) => {
    const id = await f.latestCommit();
    return f.via(() => f.mgmt.commits.retrieve(id));
  },
  'PUT /v1/commits/{id}/promote': async (f) => {
    const id = await f.latestCommit();
    return f.via(() => f.mgmt.commits.promoteOne(id));
  },
  'PUT /v1/commits/promote': async (f) => {
    await f.latestCommit();
    return f.via(() => f.mgmt.commits.promoteAll({ to_environment: 'production' }));
  },
};
