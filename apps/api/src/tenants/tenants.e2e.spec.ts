import Knock from '@knocklabs/node';
import { configureChannel } from '../../../../test/support/channels';
import { countEvents, rejection } from '../../../../test/support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../../../test/support/test-app';

describe('tenants and tenant-scoped preferences through @knocklabs/node', () => {
  let t: TestApp;
  let env: TestEnvironment;
  let knock: Knock;

  beforeAll(async () => {
    t = await startTestApp();
    env = await t.newEnvironment();
    knock = t.knock(env.secretKey);
  });
  afterAll(async () => t?.close());

  it('sets a tenant with custom properties and branding whose dark variants fall back to light', async () => {
    const tenant = await knock.tenants.set('acme', {
      name: 'Acme',
      region: 'eu',
      settings: { branding: { logo_url: 'https://acme.test/logo.png', primary_color: '#ff0000', dark_primary_color: '#990000' } },
    } as never);
    expect(tenant).toMatchObject({ __typename: 'Tenant', id: 'acme', name: 'Acme', region: 'eu' });
    expect(tenant.settings?.branding).toMatchObject({
      logo_url: 'https://acme.test/logo.png',
      dark_logo_url: 'https://acme.test/logo.png',
      primary_color: '#ff0000',
      dark_primary_color: '#990000',
      icon_url: null,
      dark_icon_url: null,
    });
    const again = await knock.tenants.set('acme', { region: 'us' } as never);
    expect(again).toMatchObject({ name: 'Acme', region: 'us' });
    expect(again.settings?.branding?.primary_color).toBe('#ff0000');
    expect(await knock.tenants.get('acme')).toEqual(again);
  });

  it('lists tenants across pages and filters by name and tenant_id', async () => {
    for (const [id, name] of [
      ['t1', 'Alpha'],
      ['t2', 'Beta'],
      ['t3', 'Alpha'],
    ])
      await knock.tenants.set(id, { name });
    const ids: string[] = [];
    for await (const tenant of knock.tenants.list({ page_size: 2 })) ids.push(tenant.id);
    expect(ids).toEqual(['t3', 't2', 't1', 'acme']);
    expect((await knock.tenants.list({ name: 'Alpha' })).entries.map((x) => x.id)).toEqual(['t3', 't1']);
    expect((await knock.tenants.list({ tenant_id: 't2' })).entries.map((x) => x.id)).toEqual(['t2']);
  });

  it("resolves a user's preferences in a tenant over the tenant's preference_set", async () => {
    await knock.tenants.set('globex', {
      name: 'Globex',
      settings: { preference_set: { channel_types: { email: false, sms: false }, workflows: { digest: false } } },
    });
    expect((await knock.tenants.get('globex')).settings?.preference_set).toMatchObject({ channel_types: { email: false, sms: false } });
    await knock.users.setPreferences('emp', 'default', { channel_types: { sms: true } });
    await knock.users.setPreferences('emp', 'globex', { workflows: { digest: true } });
    expect((await knock.users.listPreferences('emp')).map((p) => p.id)).toEqual(['default', 'globex']);
    const resolved = await knock.users.getPreferences('emp', 'default', { tenant: 'globex' });
    expect(resolved).toMatchObject({ id: 'default', channel_types: { email: false, sms: true }, workflows: { digest: true } });
    const plain = await knock.users.getPreferences('emp', 'default');
    expect(plain).toMatchObject({ channel_types: { sms: true }, workflows: null });
    await knock.users.unsetPreferences('emp', 'globex');
    expect((await knock.users.listPreferences('emp')).map((p) => p.id)).toEqual(['default']);
  });

  it('deletes a tenant', async () => {
    await knock.tenants.set('doomed', { name: 'Doomed' });
    await knock.tenants.delete('doomed');
    expect((await rejection(knock.tenants.get('doomed'))).status).toBe(404);
    expect((await knock.tenants.list({ tenant_id: 'doomed' })).entries).toEqual([]);
  });

  it('keeps channel data given with a tenant as the channel data of its $tenants object, and deletes it with the tenant', async () => {
    const push = await configureChannel(t, { type: 'push', provider: 'push_fcm', environments: [env.slug] });
    const tenant = await knock.tenants.set('initech', {
      name: 'Initech',
      channel_data: { [push.id]: { tokens: ['tenant-token'] } },
    } as never);
    expect(tenant).toMatchObject({ id: 'initech', name: 'Initech' });
    expect(tenant).not.toHaveProperty('channel_data');
    expect(await knock.objects.getChannelData('$tenants', 'initech', push.id)).toMatchObject({
      channel_id: push.id,
      data: { tokens: ['tenant-token'] },
    });

    const before = await countEvents(t);
    const unknown = await rejection(
      knock.tenants.set('initech', { channel_data: { '00000000-0000-4000-8000-000000000000': { tokens: ['x'] } } } as never),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.error).toMatchObject({ code: 'channel_invalid' });
    expect(await countEvents(t)).toBe(before);

    await knock.tenants.delete('initech');
    expect((await rejection(knock.objects.getChannelData('$tenants', 'initech', push.id))).status).toBe(404);
  });

  it('refuses bad settings and unsupported fields, writing nothing', async () => {
    const before = await countEvents(t);
    for (const body of [
      { settings: { branding: { logo_url: 'not a url' } } },
      { settings: { branding: { primary_colour: '#fff' } } },
      { settings: { theme: 'dark' } },
      { settings: { preference_set: { channel_types: { email: 'off' } } } },
      { name: 42 },
      { preferences: { default: { workflows: { w: false } } } },
    ]) {
      expect((await rejection(knock.tenants.set('strict', body as never))).status).toBe(422);
    }
    expect(await countEvents(t)).toBe(before);
  });
});
