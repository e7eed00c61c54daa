import Knock from '@knocklabs/node';
import { configureChannel } from '../../../../test/support/channels';
import { countEvents, rejection } from '../../../../test/support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../../../test/support/test-app';

describe('objects, their preferences and channel data through @knocklabs/node', () => {
  let t: TestApp;
  let env: TestEnvironment;
  let knock: Knock;
  let slack: { id: string };
  let teams: { id: string };
  let discord: { id: string };
  let sns: { id: string };
  let onesignal: { id: string };
  let email: { id: string };

  beforeAll(async () => {
    t = await startTestApp();
    env = await t.newEnvironment();
    knock = t.knock(env.secretKey);
    const environments = [env.slug];
    slack = await configureChannel(t, { type: 'chat', provider: 'chat_slack', environments });
    teams = await configureChannel(t, { type: 'chat', provider: 'chat_ms_teams', environments });
    discord = await configureChannel(t, { type: 'chat', provider: 'chat_discord', environments });
    sns = await configureChannel(t, { type: 'push', provider: 'push_aws_sns', environments });
    onesignal = await configureChannel(t, { type: 'push', provider: 'push_one_signal', environments });
    email = await configureChannel(t, { type: 'email', provider: 'postmark', environments });
  });
  afterAll(async () => t?.close());

  it('sets, merges, gets, lists across pages and deletes objects', async () => {
    const set = await knock.objects.set('projects', 'p1', { name: 'Apollo', stage: 'beta' });
    expect(set).toMatchObject({ __typename: 'Object', id: 'p1', collection: 'projects', properties: { name: 'Apollo', stage: 'beta' } });
    await knock.objects.set('projects', 'p1', { stage: 'ga', owner: null });
    expect((await knock.objects.get('projects', 'p1')).properties).toEqual({ name: 'Apollo', stage: 'ga' });
    for (let i = 2; i <= 4; i++) await knock.objects.set('projects', `p${i}`, { name: `P${i}` });
    await knock.objects.set('teams', 'other', { name: 'not a project' });
    const ids: string[] = [];
    for await (const o of knock.objects.list('projects', { page_size: 3 })) ids.push(o.id);
    expect(ids).toEqual(['p4', 'p3', 'p2', 'p1']);
    await knock.objects.delete('projects', 'p4');
    expect((await rejection(knock.objects.get('projects', 'p4'))).status).toBe(404);
    expect((await knock.objects.list('projects')).entries.map((o) => o.id)).toEqual(['p3', 'p2', 'p1']);
  });

  it('manages object preference sets: replace by default, merge on request, list, delete', async () => {
    await knock.objects.set('projects', 'prefs', { name: 'Prefs' });
    await knock.objects.setPreferences('projects', 'prefs', 'default', { channel_types: { email: false }, categories: { billing: true } });
    const replaced = await knock.objects.setPreferences('projects', 'prefs', 'default', { workflows: { deploys: false } });
    expect(replaced).toEqual({
      id: 'default',
      workflows: { deploys: false },
      categories: null,
      channel_types: null,
      channels: null,
      commercial_subscribed: null,
    });
    const merged = await knock.objects.setPreferences('projects', 'prefs', 'default', {
      __persistence_strategy__: 'merge',
      categories: { billing: { channel_types: { sms: false } } },
    });
    expect(merged).toMatchObject({ workflows: { deploys: false }, categories: { billing: { channel_types: { sms: false } } } });
    await knock.objects.setPreferences('projects', 'prefs', 'tenant-a', { commercial_subscribed: true });
    expect((await knock.objects.listPreferences('projects', 'prefs')).map((p) => p.id)).toEqual(['default', 'tenant-a']);
    expect(await knock.objects.getPreferences('projects', 'prefs', 'default')).toMatchObject({ workflows: { deploys: false } });
    await knock.objects.unsetPreferences('projects', 'prefs', 'tenant-a');
    expect((await knock.objects.listPreferences('projects', 'prefs')).map((p) => p.id)).toEqual(['default']);
    const included = await knock.objects.list('projects', { include: ['preferences'] });
    expect(
      (included.entries.find((o) => o.id === 'prefs') as unknown as { preferences: { id: string }[] }).preferences.map((p) => p.id),
    ).toEqual(['default']);
  });

  it('refuses preference sets with unknown fields, wrong types or unknown operators, writing nothing', async () => {
    const before = await countEvents(t);
    for (const body of [
      { channel_types: { email: false }, colour: 'blue' },
      { channel_types: { email: 'no' } },
      { channel_types: { fax: false } },
      { workflows: { w: { conditions: [{ variable: 'recipient.plan', operator: 'resembles', argument: 'x' }] } } },
      { __persistence_strategy__: 'append' },
    ]) {
      const res = await rejection(knock.objects.setPreferences('projects', 'bad', 'default', body as never));
      expect(res.status).toBe(422);
      expect(res.error.code).toBe('invalid_params');
    }
    expect(await countEvents(t)).toBe(before);
  });

  it('sets channel data of each chat and push provider shape, creating the object when absent', async () => {
    const cases: [{ id: string }, Record<string, unknown>][] = [
      [
        slack,
        {
          connections: [{ access_token: 'xoxb', channel_id: 'C1' }, { incoming_webhook: { url: 'https://hooks.slack.test/x' } }],
          token: { access_token: 'bot' },
        },
      ],
      [
        teams,
        {
          connections: [
            { ms_teams_channel_id: '9b2c1d6e-0000-4000-8000-000000000001', ms_teams_team_id: '9b2c1d6e-0000-4000-8000-000000000002' },
          ],
        },
      ],
      [discord, { connections: [{ channel_id: '123' }, { incoming_webhook: { url: 'https://discord.test/hook' } }] }],
      [sns, { target_arns: ['arn:aws:sns:eu-west-1:1:endpoint/APNS/app/1'] }],
      [onesignal, { player_ids: ['9b2c1d6e-0000-4000-8000-0000000000aa'] }],
    ];
    for (const [channel, data] of cases) {
      expect(await knock.objects.setChannelData('rooms', 'lobby', channel.id, { data } as never)).toMatchObject({
        channel_id: channel.id,
        data,
      });
      expect(await knock.objects.getChannelData('rooms', 'lobby', channel.id)).toMatchObject({ data });
    }
    expect(await knock.objects.get('rooms', 'lobby')).toMatchObject({ id: 'lobby', collection: 'rooms' });
    await knock.objects.unsetChannelData('rooms', 'lobby', slack.id);
    expect((await rejection(knock.objects.getChannelData('rooms', 'lobby', slack.id))).status).toBe(404);
  });

  it('refuses channel data of the wrong shape for the provider, for a missing channel, or for a channel type without data', async () => {
    const before = await countEvents(t);
    const wrong = await rejection(knock.objects.setChannelData('rooms', 'bad', slack.id, { data: { tokens: ['push-token'] } }));
    expect(wrong.status).toBe(422);
    const snsTokens = await rejection(knock.objects.setChannelData('rooms', 'bad', sns.id, { data: { tokens: ['t'] } }));
    expect(snsTokens.status).toBe(422);
    const extra = await rejection(
      knock.objects.setChannelData('rooms', 'bad', onesignal.id, {
        data: { player_ids: ['9b2c1d6e-0000-4000-8000-0000000000aa'], nickname: 'x' },
      } as never),
    );
    expect(extra.status).toBe(422);
    const missing = await rejection(
      knock.objects.setChannelData('rooms', 'bad', '9b2c1d6e-0000-4000-8000-00000000dead', { data: { tokens: ['t'] } }),
    );
    expect(missing.status).toBe(422);
    expect(missing.error).toMatchObject({
      code: 'channel_invalid',
      errors: [expect.objectContaining({ field: 'channel_id', type: 'channel_invalid' })],
    });
    const noData = await rejection(knock.objects.setChannelData('rooms', 'bad', email.id, { data: { tokens: ['t'] } }));
    expect(noData.status).toBe(422);
    const notUuid = await rejection(knock.objects.setChannelData('rooms', 'bad', 'not-a-uuid', { data: { tokens: ['t'] } }));
    expect(notUuid.error.errors).toEqual([expect.objectContaining({ field: 'channel_id' })]);
    expect(await countEvents(t)).toBe(before);
    expect((await rejection(knock.objects.get('rooms', 'bad'))).status).toBe(404);
  });

  it('takes Microsoft Teams ids of any 8-4-4-4-12 hexadecimal shape and names the field of one that is not', async () => {
    const data = { ms_teams_tenant_id: '11111111-2222-3333-4444-555555555555', connections: [] };
    expect(await knock.objects.setChannelData('rooms', 'teams-room', teams.id, { data } as never)).toMatchObject({ data });
    const before = await countEvents(t);
    const bad = await rejection(
      knock.objects.setChannelData('rooms', 'teams-room', teams.id, {
        data: { ms_teams_tenant_id: 'tenant-abc', connections: [] },
      } as never),
    );
    expect(bad.status).toBe(422);
    expect(bad.error.errors).toEqual([
      { field: 'data.ms_teams_tenant_id', message: expect.stringContaining('8-4-4-4-12'), type: 'invalid_format' },
    ]);
    expect(await countEvents(t)).toBe(before);
  });

  it('refuses ids and collections over the length limit', async () => {
    const before = await countEvents(t);
    expect((await rejection(knock.objects.set('projects', 'x'.repeat(256), { name: 'long' }))).error.errors).toEqual([
      expect.objectContaining({ field: 'id' }),
    ]);
    expect((await rejection(knock.objects.set('c'.repeat(256), 'ok', { name: 'long' }))).error.errors).toEqual([
      expect.objectContaining({ field: 'collection' }),
    ]);
    expect(await countEvents(t)).toBe(before);
  });

  it('answers empty, documented pages for object messages and schedules', async () => {
    await knock.objects.set('projects', 'quiet', {});
    const messages = await knock.objects.listMessages('projects', 'quiet');
    expect(messages.items).toEqual([]);
    expect(messages.page_info).toMatchObject({ __typename: 'PageInfo', after: null });
    expect((await knock.objects.listSchedules('projects', 'quiet')).entries).toEqual([]);
  });

  it('removes an object with its preferences, channel data and subscriptions on both sides', async () => {
    await knock.objects.set('teams', 'gone', { name: 'Gone' });
    await knock.objects.setPreferences('teams', 'gone', 'default', { workflows: { x: false } });
    await knock.objects.setChannelData('teams', 'gone', slack.id, { data: { connections: [{ channel_id: 'C9' }] } });
    await knock.objects.addSubscriptions('teams', 'gone', { recipients: ['member'] });
    await knock.objects.addSubscriptions('projects', 'p1', { recipients: [{ id: 'gone', collection: 'teams' }] });
    await knock.objects.delete('teams', 'gone');
    const left = await t.sql(
      `SELECT (SELECT count(*) FROM rm_preference_sets WHERE environment = $1 AND recipient_id = 'gone')::int AS prefs,
              (SELECT count(*) FROM rm_channel_data WHERE environment = $1 AND recipient_id = 'gone')::int AS channel_data,
              (SELECT count(*) FROM rm_subscriptions WHERE environment = $1 AND (object_id = 'gone' OR recipient_id = 'gone'))::int AS subscriptions`,
      [env.slug],
    );
    expect(left).toEqual([{ prefs: 0, channel_data: 0, subscriptions: 0 }]);
  });
});
