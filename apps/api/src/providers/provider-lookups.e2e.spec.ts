import Knock from '@knocklabs/node';
import { form, json, startHttpPeer, type Peer } from '@notify/testing/peers';
import { microsoftGraphApi, slackWebApi } from '@notify/testing/provider-peers';
import { deliveryLogs, messageOf, messageWithStatus, putChannel, putWorkflow, secretsAt } from '../../../../test/support/delivery';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/**
 * Provider lookups over the public API through @knocklabs/node (Slack: channels, auth check,
 * revoke; Microsoft Teams: auth check, teams, channels, revoke) against local peers answering
 * like Slack's Web API, the Microsoft identity platform and Graph; and one message through the
 * engine to a Teams channel over the Bot Framework (a new provider, wired end to end).
 */
describe('provider lookups and the Teams bot channel', () => {
  let t: TestApp;
  let knock: Knock;
  let peer: Peer;
  const tokens = new Set<string>();
  const tenant = '7d1b2c3a-0000-4000-8000-0000000007e7';
  const app = {
    appId: '9b1c2d3e-0000-4000-8000-00000000b07a',
    password: 'e2e-teams-password-0123456789',
    issued: [] as string[],
    consented: new Set([tenant]),
  };
  const object = JSON.stringify({ collection: 'projects', object_id: 'apollo' });
  let slackId: string;
  let teamsId: string;
  const posted: any[] = [];

  beforeAll(async () => {
    const slack = slackWebApi(tokens);
    const microsoft = microsoftGraphApi(app);
    peer = await startHttpPeer((req) => {
      if (req.url.startsWith('/slack/')) return slack({ ...req, url: req.url.slice(6) });
      if (req.url === '/v3/conversations') {
        if (req.headers.authorization !== `Bearer ${app.issued.at(-1)}`)
          return { status: 401, json: { message: 'Authorization has been denied for this request.' } };
        posted.push(json(req));
        return { status: 201, json: { id: '19:general@thread.tacv2;messageid=1764144000001', activityId: '1764144000001' } };
      }
      return microsoft(req);
    });
    t = await startTestApp();
    knock = t.knock();
    slackId = await putChannel(t, 'slack-app', { type: 'chat', provider: 'slack', provider_settings: { base_url: `${peer.url}/slack` } });
    teamsId = await putChannel(t, 'teams', {
      type: 'chat',
      provider: 'ms-teams',
      provider_settings: { app_id: app.appId, app_password: app.password, login_url: peer.url, graph_url: peer.url, base_url: peer.url },
    });
    await knock.objects.set('projects', 'apollo', { name: 'Apollo' });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  const connectSlack = async (token: string) => {
    tokens.add(token);
    await knock.objects.setChannelData('projects', 'apollo', slackId, {
      data: { connections: [{ channel_id: 'C0GENERAL1' }], token: { access_token: token } },
    });
  };

  it("lists the Slack channels the object's token sees, page by page, checks and revokes the token", async () => {
    await connectSlack('xoxb-e2e-token-000001');
    const first = await knock.providers.slack.listChannels(slackId, {
      access_token_object: object,
      query_options: { limit: 1, types: 'public_channel' },
    });
    expect(first.slack_channels).toEqual([
      { id: 'C0GENERAL1', name: 'general', is_private: false, is_im: false, context_team_id: 'T0NOTIFY1' },
    ]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await knock.providers.slack.listChannels(slackId, {
      access_token_object: object,
      query_options: { limit: 1, types: 'public_channel', cursor: first.next_cursor! },
    });
    expect(second.slack_channels.map((c) => c.id)).toEqual(['C0RANDOM01']);

    expect(await knock.providers.slack.checkAuth(slackId, { access_token_object: object })).toEqual({ connection: { ok: true } });
    expect(await knock.providers.slack.revokeAccess(slackId, { access_token_object: object })).toEqual({ ok: 'ok' });
    expect(tokens.has('xoxb-e2e-token-000001')).toBe(false);
    const data = await knock.objects.getChannelData('projects', 'apollo', slackId);
    expect(data.data).toEqual({ connections: [{ channel_id: 'C0GENERAL1' }], token: null });
    expect(await knock.providers.slack.checkAuth(slackId, { access_token_object: object })).toEqual({
      connection: { ok: false, reason: 'Access token not set.' },
    });
    const revokedAgain = await t.http(
      'PUT',
      `/v1/providers/slack/${slackId}/revoke_access?access_token_object=${encodeURIComponent(object)}`,
      { key: t.env.secretKey },
    );
    expect(revokedAgain.status).toBe(403);
    expect(revokedAgain.body).toEqual({
      code: 'authorization',
      message: 'Access token not set.',
      status: 403,
      type: 'authentication_error',
    });
  });

  it('answers a token Slack refuses as a failed check, and bad references or channels as errors', async () => {
    await connectSlack('xoxb-e2e-token-000002');
    tokens.delete('xoxb-e2e-token-000002');
    expect(await knock.providers.slack.checkAuth(slackId, { access_token_object: object })).toEqual({
      connection: { ok: false, reason: 'token_revoked' },
    });
    const bad = await t.http(
      'GET',
      `/v1/providers/slack/${slackId}/channels?access_token_object=${encodeURIComponent('{"collection":1}')}`,
      { key: t.env.secretKey },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'access_token_object' })]);
    const wrong = await t.http('GET', `/v1/providers/slack/${teamsId}/auth_check?access_token_object=${encodeURIComponent(object)}`, {
      key: t.env.secretKey,
    });
    expect(wrong.status).toBe(404);
  });

  it('checks, lists teams and channels of, and revokes a Microsoft Teams tenant through Graph', async () => {
    const notSet = await knock.providers.msTeams.checkAuth(teamsId, { ms_teams_tenant_object: object });
    expect(notSet.connection).toMatchObject({ ok: false });
    await knock.objects.setChannelData('projects', 'apollo', teamsId, { data: { connections: [], ms_teams_tenant_id: tenant } });
    expect(await knock.providers.msTeams.checkAuth(teamsId, { ms_teams_tenant_object: object })).toEqual({
      connection: { ok: true, ms_teams_tenant_id: tenant },
    });

    const page = await knock.providers.msTeams.listTeams(teamsId, { ms_teams_tenant_object: object, query_options: { $top: 1 } });
    expect({ ms_teams_teams: page.ms_teams_teams, skip_token: page.skip_token }).toEqual({
      ms_teams_teams: [{ id: '172b0cce-e65d-44ce-9a49-91d9f2e8493a', displayName: 'Engineering', description: 'Builders' }],
      skip_token: '1',
    });
    const next = await knock.providers.msTeams.listTeams(teamsId, {
      ms_teams_tenant_object: object,
      query_options: { $top: 1, $skiptoken: '1' },
    });
    expect(next.ms_teams_teams.map((team) => team.displayName)).toEqual(['Sales']);
    const raw = await t.http(
      'GET',
      `/v1/providers/ms-teams/${teamsId}/teams?ms_teams_tenant_object=${encodeURIComponent(object)}&query_options[$top]=1&query_options[$skiptoken]=1`,
      { key: t.env.secretKey },
    );
    // The client's page object shows a last page's null skip_token as '': the wire has null.
    expect(raw.body.skip_token).toBeNull();

    const channels = await knock.providers.msTeams.listChannels(teamsId, {
      ms_teams_tenant_object: object,
      team_id: page.ms_teams_teams[0].id,
    });
    // Archived and private channels are left out unless the caller filters itself.
    expect(channels.ms_teams_channels.map((c) => c.displayName)).toEqual(['General']);

    expect(await knock.providers.msTeams.revokeAccess(teamsId, { ms_teams_tenant_object: object })).toEqual({ ok: 'ok' });
    expect((await knock.objects.getChannelData('projects', 'apollo', teamsId)).data).toEqual({ connections: [], ms_teams_tenant_id: null });

    const other = '11111111-0000-4000-8000-000000000bad';
    await knock.objects.setChannelData('projects', 'apollo', teamsId, { data: { connections: [], ms_teams_tenant_id: other } });
    const refused = await knock.providers.msTeams.checkAuth(teamsId, { ms_teams_tenant_object: object });
    expect(refused.connection).toMatchObject({ ok: false, ms_teams_tenant_id: other, reason: expect.stringContaining('AADSTS700016') });
  });

  it('delivers a workflow message to a Teams channel over the Bot Framework, the app password out of the records', async () => {
    await knock.users.update('ada', { name: 'Ada' });
    await knock.users.setChannelData('ada', teamsId, {
      data: { connections: [{ ms_teams_channel_id: '0c2e6a4d-1111-4111-8111-1111111111c1', ms_teams_tenant_id: tenant }] },
    });
    await putWorkflow(t, 'teams-deploys', [
      { type: 'channel', ref: 'teams', channel_key: 'teams', template: { markdown_body: '**{{ data.title }}** shipped' } },
    ]);
    const { workflow_run_id } = await knock.workflows.trigger('teams-deploys', { recipients: ['ada'], data: { title: 'Apollo 1.0' } });
    const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'teams')).id, ['sent']);

    expect(posted.at(-1)).toEqual({
      isGroup: true,
      channelData: { channel: { id: '0c2e6a4d-1111-4111-8111-1111111111c1' }, tenant: { id: tenant } },
      activity: { type: 'message', text: '**Apollo 1.0** shipped', textFormat: 'markdown' },
    });
    const logs = await deliveryLogs(t, message.id);
    expect(logs.map((l) => l.response?.status)).toEqual(expect.arrayContaining([200, 201]));
    expect(await secretsAt(t, [app.password])).toEqual([]);
  });

  it('reads {{ vars.x }} references of the channel settings (secret variables too) as delivery does', async () => {
    for (const [key, value, type] of [
      ['teams_app_password', app.password, 'secret'],
      ['microsoft_origin', peer.url, 'public'],
    ]) {
      const saved = await t.http('PUT', `/v1/variables/${key}`, { key: t.serviceToken, body: { variable: { value, type } } });
      expect(saved.status).toBe(200);
    }
    const viaVars = await putChannel(t, 'teams-vars', {
      type: 'chat',
      provider: 'ms-teams',
      provider_settings: {
        app_id: app.appId,
        app_password: '{{ vars.teams_app_password }}',
        login_url: '{{ vars.microsoft_origin }}',
        graph_url: '{{vars.microsoft_origin}}',
      },
    });
    await knock.objects.setChannelData('projects', 'apollo', viaVars, { data: { connections: [], ms_teams_tenant_id: tenant } });
    const teams = await knock.providers.msTeams.listTeams(viaVars, { ms_teams_tenant_object: object });
    expect(teams.ms_teams_teams.map((team) => team.displayName)).toEqual(['Engineering', 'Sales']);
    const signIn = peer.requests.filter((r) => r.url === `/${tenant}/oauth2/v2.0/token`).at(-1)!;
    expect(form(signIn).client_secret).toBe(app.password);

    // A variable the environment does not have: the reference stays as written, and the sign-in is refused.
    const missing = await putChannel(t, 'teams-missing-var', {
      type: 'chat',
      provider: 'ms-teams',
      provider_settings: { app_id: app.appId, app_password: '{{ vars.not_there }}', login_url: peer.url, graph_url: peer.url },
    });
    await knock.objects.setChannelData('projects', 'apollo', missing, { data: { connections: [], ms_teams_tenant_id: tenant } });
    const refused = await t.http('GET', `/v1/providers/ms-teams/${missing}/teams?ms_teams_tenant_object=${encodeURIComponent(object)}`, {
      key: t.env.secretKey,
    });
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'authorization', message: expect.stringContaining('Invalid client secret') },
    });
  });
});
