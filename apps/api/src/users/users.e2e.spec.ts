import Knock from '@knocklabs/node';
import { configureChannel } from '../../../../test/support/channels';
import { countEvents, rejection, userFootprint } from '../../../../test/support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../../../test/support/test-app';

describe('users through @knocklabs/node', () => {
  let t: TestApp;
  let env: TestEnvironment;
  let knock: Knock;
  let push: { id: string };
  let slack: { id: string };

  beforeAll(async () => {
    t = await startTestApp();
    env = await t.newEnvironment();
    knock = t.knock(env.secretKey);
    push = await configureChannel(t, { type: 'push', provider: 'push_fcm', environments: [env.slug] });
    slack = await configureChannel(t, { type: 'chat', provider: 'chat_slack', environments: [env.slug] });
  });
  afterAll(async () => t?.close());

  it('identifies with custom properties, inline channel data and inline preferences', async () => {
    const user = await knock.users.update('ada', {
      name: 'Ada',
      email: 'ada@example.com',
      plan: 'pro',
      channel_data: { [push.id]: { tokens: ['tok-1'] } },
      preferences: { default: { channel_types: { email: false }, workflows: { digest: false } } },
    } as Knock.Users.UserUpdateParams);
    expect(user).toMatchObject({ __typename: 'User', id: 'ada', name: 'Ada', email: 'ada@example.com', plan: 'pro' });
    expect(user).not.toHaveProperty('channel_data');
    expect(await knock.users.getChannelData('ada', push.id)).toEqual({
      __typename: 'ChannelData',
      channel_id: push.id,
      data: { tokens: ['tok-1'], devices: [{ token: 'tok-1', locale: null, timezone: null }] },
      provider: 'push_fcm',
    });
    expect(await knock.users.getPreferences('ada', 'default')).toMatchObject({
      id: 'default',
      channel_types: { email: false },
      workflows: { digest: false },
    });

    // Inline preferences merge into what is there.
    await knock.users.update('ada', { preferences: { default: { categories: { marketing: false } } } } as Knock.Users.UserUpdateParams);
    expect(await knock.users.getPreferences('ada', 'default')).toMatchObject({
      channel_types: { email: false },
      categories: { marketing: false },
    });
  });

  it('refuses inline channel data for a channel not in the environment, writing nothing', async () => {
    const other = await configureChannel(t, { type: 'push', provider: 'push_apns', environments: ['development'] });
    const before = await countEvents(t);
    const res = await rejection(
      knock.users.update('nobody', { name: 'N', channel_data: { [other.id]: { tokens: ['x'] } } } as Knock.Users.UserUpdateParams),
    );
    expect(res.status).toBe(422);
    expect(res.error).toMatchObject({ code: 'channel_invalid', errors: [expect.objectContaining({ field: `channel_data.${other.id}` })] });
    const shape = await rejection(
      knock.users.update('nobody', { channel_data: { [slack.id]: { tokens: ['x'] } } } as Knock.Users.UserUpdateParams),
    );
    expect(shape.status).toBe(422);
    expect(await countEvents(t)).toBe(before);
    expect((await rejection(knock.users.get('nobody'))).status).toBe(404);
  });

  it('sets, reads and unsets channel data; a set creates the user; a missing channel is channel_invalid', async () => {
    const set = await knock.users.setChannelData('fresh', slack.id, {
      data: { connections: [{ user_id: 'U123' }], token: { access_token: 'xoxb-1' } },
    });
    expect(set).toMatchObject({
      __typename: 'ChannelData',
      channel_id: slack.id,
      provider: 'chat_slack',
      data: { connections: [{ user_id: 'U123' }] },
    });
    expect(await knock.users.get('fresh')).toMatchObject({ id: 'fresh' });
    await knock.users.setChannelData('fresh', push.id, { data: { devices: [{ token: 'd1', locale: 'en', timezone: 'Europe/Paris' }] } });
    expect(await knock.users.getChannelData('fresh', push.id)).toMatchObject({
      data: { devices: [{ token: 'd1', locale: 'en', timezone: 'Europe/Paris' }] },
    });
    await knock.users.unsetChannelData('fresh', slack.id);
    expect((await rejection(knock.users.getChannelData('fresh', slack.id))).status).toBe(404);
    const before = await countEvents(t);
    const missing = await rejection(
      knock.users.setChannelData('fresh', '9b2c1d6e-0000-4000-8000-00000000beef', { data: { tokens: ['x'] } }),
    );
    expect(missing).toMatchObject({ status: 422, error: { code: 'channel_invalid' } });
    expect((await rejection(knock.users.setChannelData('fresh', push.id, { data: { tokens: 'not-a-list' } } as never))).status).toBe(422);
    expect(await countEvents(t)).toBe(before);
  });

  it('lists users across pages, with include[]=preferences', async () => {
    const e = await t.newEnvironment();
    const k = t.knock(e.secretKey);
    for (let i = 0; i < 5; i++)
      await k.users.update(`p${i}`, {
        name: `n${i}`,
        preferences: i === 2 ? { default: { commercial_subscribed: false } } : undefined,
      } as Knock.Users.UserUpdateParams);
    const seen: string[] = [];
    for await (const user of k.users.list({ page_size: 2 })) seen.push(user.id);
    expect(seen).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
    const withPrefs = await k.users.list({ page_size: 50, include: ['preferences'] });
    const p2 = withPrefs.entries.find((u) => u.id === 'p2') as unknown as { preferences: { id: string; commercial_subscribed: boolean }[] };
    expect(p2.preferences).toEqual([expect.objectContaining({ id: 'default', commercial_subscribed: false })]);
    expect((withPrefs.entries.find((u) => u.id === 'p1') as unknown as { preferences: unknown[] }).preferences).toEqual([]);
  });

  it('answers empty, documented pages for messages and schedules, and lists subscriptions', async () => {
    await knock.users.update('lister', { name: 'L' });
    const messages = await knock.users.listMessages('lister', { page_size: 10 });
    expect(messages.items).toEqual([]);
    expect(messages.page_info).toMatchObject({ __typename: 'PageInfo', after: null, before: null, page_size: 10 });
    const schedules = await knock.users.listSchedules('lister');
    expect(schedules.entries).toEqual([]);
    expect(schedules.page_info).toMatchObject({ after: null, before: null });
    for (const id of ['a', 'b', 'c']) await knock.objects.addSubscriptions('projects', id, { recipients: ['lister'] });
    const subs: string[] = [];
    for await (const s of knock.users.listSubscriptions('lister', { page_size: 2 })) subs.push((s.object as { id: string }).id);
    expect(subs.sort()).toEqual(['a', 'b', 'c']);
    expect((await rejection(knock.users.listMessages('ghost'))).status).toBe(404);
  });

  it('merges a user: preferences, channel data and subscriptions move; the source is gone', async () => {
    await knock.users.update('target', {
      name: 'Target',
      preferences: { default: { workflows: { w: true } } },
    } as Knock.Users.UserUpdateParams);
    await knock.users.update('source', {
      name: 'Source',
      channel_data: { [push.id]: { tokens: ['src'] } },
      preferences: { default: { workflows: { w: false } }, acme: { commercial_subscribed: false } },
    } as Knock.Users.UserUpdateParams);
    await knock.objects.addSubscriptions('teams', 't1', { recipients: ['source'], properties: { role: 'admin' } });
    await knock.audiences.addMembers('merge-audience', { members: [{ user: { id: 'source' } }] }, { query: { create_audience: true } });

    const merged = await knock.users.merge('target', { from_user_id: 'source' });
    expect(merged).toMatchObject({ id: 'target', name: 'Target' });
    expect(await knock.users.getChannelData('target', push.id)).toMatchObject({ data: { tokens: ['src'] } });
    // The target keeps its own default set; the source's other set moves.
    expect(await knock.users.getPreferences('target', 'default')).toMatchObject({ workflows: { w: true } });
    expect(await knock.users.getPreferences('target', 'acme')).toMatchObject({ commercial_subscribed: false });
    const subs = await knock.users.listSubscriptions('target');
    expect(subs.entries).toEqual([
      expect.objectContaining({ object: expect.objectContaining({ id: 't1' }), properties: { role: 'admin' } }),
    ]);
    expect((await rejection(knock.users.get('source'))).status).toBe(404);
    expect((await knock.audiences.listMembers('merge-audience')).entries.map((m) => m.user_id)).toEqual(['target']);
    expect(await userFootprint(t, env.slug, 'source')).toEqual({
      users: 0,
      preferences: 0,
      channel_data: 0,
      subscriptions: 0,
      audience_members: 0,
    });
  });

  it('refuses a merge into itself or from a missing user, writing nothing', async () => {
    await knock.users.update('solo', { name: 'Solo' });
    const before = await countEvents(t);
    const self = await rejection(knock.users.merge('solo', { from_user_id: 'solo' }));
    expect(self.status).toBe(422);
    expect(self.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'from_user_id' })] });
    expect((await rejection(knock.users.merge('solo', { from_user_id: 'ghost' }))).status).toBe(404);
    expect((await rejection(knock.users.merge('ghost', { from_user_id: 'solo' }))).status).toBe(404);
    const unknownField = await rejection(t.knock(env.secretKey).post('/v1/users/solo/merge', { body: { from_user_id: 'x', extra: 1 } }));
    expect(unknownField.status).toBe(422);
    expect(await countEvents(t)).toBe(before);
  });

  it('removes a deleted user from every read model', async () => {
    await knock.users.update('doomed', {
      name: 'D',
      channel_data: { [push.id]: { tokens: ['d'] } },
      preferences: { default: { workflows: { x: false } } },
    } as Knock.Users.UserUpdateParams);
    await knock.objects.addSubscriptions('projects', 'doom', { recipients: ['doomed'] });
    await knock.audiences.addMembers(
      'doom-audience',
      { members: [{ user: { id: 'doomed' }, tenant: 'acme' }] },
      { query: { create_audience: true } },
    );
    expect(await userFootprint(t, env.slug, 'doomed')).toEqual({
      users: 1,
      preferences: 1,
      channel_data: 1,
      subscriptions: 1,
      audience_members: 1,
    });
    await knock.users.delete('doomed');
    expect(await userFootprint(t, env.slug, 'doomed')).toEqual({
      users: 0,
      preferences: 0,
      channel_data: 0,
      subscriptions: 0,
      audience_members: 0,
    });
    expect((await knock.objects.listSubscriptions('projects', 'doom')).entries).toEqual([]);
  });

  it('keeps personal properties only sealed in the log, and unreadable after the user is deleted (ADR 0180)', async () => {
    const email = `forgotten-${Date.now()}@example.com`;
    await knock.users.update('forgotten', { email, phone_number: '+15550123', favourite_tea: 'lapsang-forgotten' });
    expect((await knock.users.get('forgotten')).email).toBe(email);
    const logText = async (value: string) =>
      Number((await t.sql<{ c: string }>("SELECT count(*) AS c FROM es_events WHERE data::text LIKE '%' || $1 || '%'", [value]))[0].c);
    for (const value of [email, '+15550123', 'lapsang-forgotten']) expect(await logText(value)).toBe(0);
    const before = await t.sql<{ c: string }>('SELECT count(*) AS c FROM erasure_keys WHERE subject = $1', [`${env.slug}/user/forgotten`]);
    expect(Number(before[0].c)).toBe(1);

    await knock.users.delete('forgotten');
    const after = await t.sql<{ c: string }>('SELECT count(*) AS c FROM erasure_keys WHERE subject = $1', [`${env.slug}/user/forgotten`]);
    expect(Number(after[0].c)).toBe(0);
    expect(await userFootprint(t, env.slug, 'forgotten')).toMatchObject({ users: 0 });
  });
});
