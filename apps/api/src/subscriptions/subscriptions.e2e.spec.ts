import Knock from '@knocklabs/node';
import { configureChannel } from '../../../../test/support/channels';
import { countEvents, rejection } from '../../../../test/support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../../../test/support/test-app';

const recipientIds = (entries: { recipient: unknown }[]) => entries.map((s) => (s.recipient as { id: string }).id).sort();

describe('subscriptions through @knocklabs/node', () => {
  let t: TestApp;
  let env: TestEnvironment;
  let knock: Knock;

  beforeAll(async () => {
    t = await startTestApp();
    env = await t.newEnvironment();
    knock = t.knock(env.secretKey);
  });
  afterAll(async () => t?.close());

  it('subscribes users by id and inline, and objects inline; identifies them on the way', async () => {
    const push = await configureChannel(t, { type: 'push', provider: 'push_expo', environments: [env.slug] });
    const added = await knock.objects.addSubscriptions('projects', 'apollo', {
      recipients: [
        'u-plain',
        { id: 'u-inline', name: 'Inline', channel_data: { [push.id]: { tokens: ['ExponentPushToken[x]'] } } },
        { id: 'ops', collection: 'teams', name: 'Ops' },
      ],
      properties: { role: 'watcher' },
    });
    expect(added).toHaveLength(3);
    expect(
      added.every(
        (s) => s.__typename === 'Subscription' && s.object.id === 'apollo' && (s.properties as { role: string }).role === 'watcher',
      ),
    ).toBe(true);
    expect(await knock.users.get('u-plain')).toMatchObject({ id: 'u-plain' });
    expect(await knock.users.get('u-inline')).toMatchObject({ name: 'Inline' });
    expect(await knock.users.getChannelData('u-inline', push.id)).toMatchObject({ data: { tokens: ['ExponentPushToken[x]'] } });
    expect(await knock.objects.get('teams', 'ops')).toMatchObject({ properties: { name: 'Ops' } });
    const team = added.find((s) => (s.recipient as { __typename: string }).__typename === 'Object');
    expect(team?.recipient).toMatchObject({ id: 'ops', collection: 'teams' });
  });

  it('upserts properties on re-subscribe and keeps them when none are sent', async () => {
    await knock.objects.addSubscriptions('projects', 'gemini', { recipients: ['u-props'], properties: { role: 'owner' } });
    const updated = await knock.objects.addSubscriptions('projects', 'gemini', { recipients: ['u-props'], properties: { role: 'viewer' } });
    expect(updated[0].properties).toEqual({ role: 'viewer' });
    const kept = await knock.objects.addSubscriptions('projects', 'gemini', { recipients: ['u-props'] });
    expect(kept[0].properties).toEqual({ role: 'viewer' });
    expect((await knock.objects.listSubscriptions('projects', 'gemini')).entries).toHaveLength(1);
  });

  it('lists subscribers (mode object) across pages, filters by recipient, and lists what an object subscribes to (mode recipient)', async () => {
    const recipients = ['s1', 's2', 's3', 's4', 's5'];
    await knock.objects.addSubscriptions('projects', 'mercury', { recipients });
    await knock.objects.addSubscriptions('projects', 'mercury', { recipients: [{ id: 'eng', collection: 'teams' }] });
    const all: string[] = [];
    for await (const s of knock.objects.listSubscriptions('projects', 'mercury', { page_size: 2 }))
      all.push((s.recipient as { id: string }).id);
    expect(all.sort()).toEqual([...recipients, 'eng'].sort());
    const filtered = await knock.objects.listSubscriptions('projects', 'mercury', {
      recipients: ['s2', { id: 'eng', collection: 'teams' }],
    });
    expect(recipientIds(filtered.entries)).toEqual(['eng', 's2']);
    // The team subscribes to two projects: mode recipient lists them.
    await knock.objects.addSubscriptions('projects', 'venus', { recipients: [{ id: 'eng', collection: 'teams' }] });
    const ofTeam = await knock.objects.listSubscriptions('teams', 'eng', { mode: 'recipient' });
    expect(ofTeam.entries.map((s) => s.object.id).sort()).toEqual(['mercury', 'venus']);
    const onlyVenus = await knock.objects.listSubscriptions('teams', 'eng', {
      mode: 'recipient',
      objects: [{ collection: 'projects', id: 'venus' }],
    });
    expect(onlyVenus.entries.map((s) => s.object.id)).toEqual(['venus']);
    const userSubs = await knock.users.listSubscriptions('s1', { objects: [{ collection: 'projects', id: 'mercury' }] as never });
    expect(userSubs.entries.map((s) => s.object.id)).toEqual(['mercury']);
  });

  it('unsubscribes, answering what was removed', async () => {
    await knock.objects.addSubscriptions('projects', 'apollo-2', { recipients: ['d1', 'd2', { id: 'qa', collection: 'teams' }] });
    const removed = await knock.objects.deleteSubscriptions('projects', 'apollo-2', {
      recipients: ['d1', { id: 'qa', collection: 'teams' }, 'never-subscribed'],
    });
    expect(recipientIds(removed)).toEqual(['d1', 'qa']);
    expect(recipientIds((await knock.objects.listSubscriptions('projects', 'apollo-2')).entries)).toEqual(['d2']);
  });

  it('includes recipient preferences on request', async () => {
    await knock.users.update('pref-sub', { preferences: { default: { workflows: { w: false } } } } as Knock.Users.UserUpdateParams);
    await knock.objects.addSubscriptions('projects', 'with-prefs', { recipients: ['pref-sub'] });
    const page = await knock.objects.listSubscriptions('projects', 'with-prefs', { include: ['preferences'] });
    expect((page.entries[0].recipient as unknown as { preferences: { id: string }[] }).preferences.map((p) => p.id)).toEqual(['default']);
  });

  it('refuses bad recipients and unknown fields, writing nothing', async () => {
    const before = await countEvents(t);
    for (const body of [
      { recipients: [] },
      { recipients: ['ok'], extra: true },
      { recipients: [{ id: 'x'.repeat(256) }] },
      { recipients: [{ id: 'o', collection: '' }] },
      { recipients: [42] },
    ]) {
      const res = await rejection(knock.objects.addSubscriptions('projects', 'strict', body as never));
      expect(res.status).toBe(422);
    }
    expect(await countEvents(t)).toBe(before);
  });
});
