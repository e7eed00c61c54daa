import Knock from '@knocklabs/node';
import { configureChannel } from '../support/channels';
import { eventually } from '../support/recipients';
import { startTestApp, TestApp } from '../support/test-app';

/** Each read model, every row in a stable order. */
const TABLES: Record<string, string> = {
  users: 'SELECT * FROM rm_users ORDER BY environment, id',
  objects: 'SELECT * FROM rm_objects ORDER BY environment, collection, id',
  tenants: 'SELECT * FROM rm_tenants ORDER BY environment, id',
  preferences: 'SELECT * FROM rm_preference_sets ORDER BY environment, recipient_type, recipient_collection, recipient_id, set_id',
  'channel-data': 'SELECT * FROM rm_channel_data ORDER BY environment, recipient_type, recipient_collection, recipient_id, channel_id',
  subscriptions:
    'SELECT * FROM rm_subscriptions ORDER BY environment, object_collection, object_id, recipient_type, recipient_collection, recipient_id',
  'bulk-operations': 'SELECT * FROM rm_bulk_operations ORDER BY environment, id',
};

describe('recipient read models: a rebuild from the log equals the live result', () => {
  let t: TestApp;
  let knock: Knock;

  beforeAll(async () => {
    t = await startTestApp();
    const env = await t.newEnvironment();
    knock = t.knock(env.secretKey);
    const push = await configureChannel(t, { type: 'push', provider: 'push_fcm', environments: [env.slug] });
    const slack = await configureChannel(t, { type: 'chat', provider: 'chat_slack', environments: [env.slug] });

    // A history with every kind of event these read models take, deletions and a merge included.
    for (let i = 0; i < 6; i++) {
      await knock.users.update(`u${i}`, {
        name: `U${i}`,
        channel_data: { [push.id]: { tokens: [`t${i}`] } },
        preferences: { default: { workflows: { w: i % 2 === 0 } } },
      } as Knock.Users.UserUpdateParams);
    }
    await knock.users.update('u1', { name: 'renamed', plan: 'pro' });
    await knock.users.setPreferences('u2', 'acme', { commercial_subscribed: false });
    await knock.users.unsetChannelData('u3', push.id);
    await knock.objects.set('teams', 'eng', { name: 'Eng' });
    await knock.objects.setChannelData('teams', 'eng', slack.id, { data: { connections: [{ channel_id: 'C1' }] } });
    await knock.objects.setPreferences('teams', 'eng', 'default', { channel_types: { chat: true } });
    await knock.objects.addSubscriptions('projects', 'p1', {
      recipients: ['u0', 'u1', 'u4', { id: 'eng', collection: 'teams' }],
      properties: { role: 'x' },
    });
    await knock.objects.addSubscriptions('projects', 'p2', { recipients: ['u4', 'u5'] });
    await knock.objects.addSubscriptions('projects', 'p1', { recipients: ['u0'], properties: { role: 'y' } });
    await knock.objects.deleteSubscriptions('projects', 'p2', { recipients: ['u5'] });
    await knock.users.merge('u0', { from_user_id: 'u4' });
    await knock.users.delete('u5');
    await knock.objects.set('teams', 'ops', { name: 'Ops' });
    await knock.objects.addSubscriptions('teams', 'ops', { recipients: ['u1'] });
    await knock.objects.delete('teams', 'ops');
    await knock.tenants.set('acme', {
      name: 'Acme',
      settings: { branding: { primary_color: '#000' }, preference_set: { workflows: { w: false } } },
    });
    await knock.tenants.set('gone', { name: 'Gone' });
    await knock.tenants.delete('gone');
    const op = await knock.users.bulk.identify({ users: [{ id: 'b1' }, { id: 'b2', name: 'B2' }] });
    await eventually(
      () => knock.bulkOperations.get(op.id),
      (o) => o.status === 'completed',
    );
    await eventually(
      () => t.runtime.lag(),
      (lag) => lag === 0,
    );
  });
  afterAll(async () => t?.close());

  it.each(Object.keys(TABLES))('%s', async (name) => {
    const live = await t.sql(TABLES[name]);
    expect(live.length).toBeGreaterThan(0);
    await t.runtime.rebuild(name);
    // The live loop may apply part of the replay itself; either way the checkpoint restarted at zero.
    const status = (await t.runtime.status()).find((s) => s.name === name)!;
    const [{ events }] = await t.sql<{ events: number }>(`SELECT count(*)::int AS events FROM es_events WHERE event_type = ANY($1)`, [
      t.runtime.get(name).filter.eventTypes,
    ]);
    expect(status.eventsApplied).toBe(events);
    expect(await t.sql(TABLES[name])).toEqual(live);
  });
});
