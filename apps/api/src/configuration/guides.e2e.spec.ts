import KnockMgmt from '@knocklabs/mgmt';
import { guideStream } from '@notify/domain';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Guides through the official management client: versioned like workflows, checked against their message types. */
describe('guides (management API)', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;
  const env = { environment: 'development' };
  const countEvents = async () => Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const banner = {
    name: 'Getting started',
    channel_key: 'guides',
    steps: [
      {
        ref: 'welcome',
        name: 'Welcome',
        schema_key: 'banner',
        schema_semver: '1.0.0',
        schema_variant_key: 'default',
        values: { title: 'Welcome aboard', dismissible: true },
      },
    ],
    activation_url_patterns: [{ directive: 'allow' as const, pathname: '/dashboard/*' }],
    target_property_conditions: { all: [{ variable: 'recipient.plan', operator: 'equal_to' as const, argument: 'pro' }] },
  };

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
    expect(
      (
        await svc('PUT', '/v1/channels/guides', {
          channel: {
            name: 'Guides',
            type: 'in_app_guide',
            provider: 'knock-guide',
            environment_settings: { development: {}, production: {} },
          },
        })
      ).status,
    ).toBe(200);
    await mgmt.messageTypes.upsert('banner', {
      ...env,
      message_type: {
        name: 'Banner',
        description: null,
        preview: '<div>{{ title }}</div>',
        variants: [
          {
            key: 'default',
            name: 'Default',
            fields: [
              { type: 'text', key: 'title', label: 'Title', settings: { required: true } },
              { type: 'boolean', key: 'dismissible', label: 'Dismissible' },
            ],
          },
        ],
      } as never,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('upserts, validates, reads back and lists a guide', async () => {
    const { guide } = await mgmt.guides.upsert('getting-started', { ...env, guide: banner as never });
    expect(guide).toMatchObject({
      key: 'getting-started',
      name: 'Getting started',
      channel_key: 'guides',
      type: 'banner',
      active: false,
      valid: true,
      environment: 'development',
      steps: [expect.objectContaining({ ref: 'welcome', values: { title: 'Welcome aboard', dismissible: true } })],
      target_property_conditions: banner.target_property_conditions,
    });
    expect((await mgmt.guides.validate('getting-started', { ...env, guide: { ...banner, name: 'Other' } as never })).guide.name).toBe(
      'Other',
    );
    expect(await mgmt.guides.retrieve('getting-started', env)).toMatchObject({ key: 'getting-started', name: 'Getting started' });
    const keys: string[] = [];
    for await (const g of mgmt.guides.list(env)) keys.push(g.key);
    expect(keys).toEqual(['getting-started']);
    expect((await t.store.readStream(guideStream('development', 'getting-started'))).map((e) => e.type)).toEqual(['GuideUpserted']);
  });

  it('refuses content that does not match its message type, or a channel that is not a guide channel, writing nothing', async () => {
    const before = await countEvents();
    const step = banner.steps[0];
    const cases: [unknown, string[]][] = [
      [{ ...banner, steps: [{ ...step, values: { title: 'Hi', colour: 'red' } }] }, ['guide.steps.0.values.colour']],
      [{ ...banner, steps: [{ ...step, values: { title: 42 } }] }, ['guide.steps.0.values.title']],
      [{ ...banner, steps: [{ ...step, values: { dismissible: false } }] }, ['guide.steps.0.values.title']],
      [{ ...banner, steps: [{ ...step, schema_key: 'modal' }] }, ['guide.steps.0.schema_key']],
      [{ ...banner, steps: [{ ...step, schema_variant_key: 'wide' }] }, ['guide.steps.0.schema_variant_key']],
      [{ ...banner, channel_key: 'in-app' }, ['guide.channel_key']],
      [{ ...banner, channel_key: 'nowhere' }, ['guide.channel_key']],
    ];
    for (const [guide, fields] of cases) {
      for (const path of ['/v1/guides/bad?environment=development', '/v1/guides/bad/validate?environment=development']) {
        const res = await svc('PUT', path, { guide });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ code: 'invalid_params', status: 422 });
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
      }
    }
    expect((await svc('GET', '/v1/guides/bad?environment=development')).status).toBe(404);
    expect(await countEvents()).toBe(before);
  });

  it('says when the guide channel exists but has no settings in the environment, rather than that it does not exist', async () => {
    const channel = { name: 'Prod guides', type: 'in_app_guide', provider: 'knock-guide', environment_settings: { production: {} } };
    expect((await svc('PUT', '/v1/channels/prod-guides', { channel })).status).toBe(200);
    const unset = await svc('PUT', '/v1/guides/bad?environment=development', { guide: { ...banner, channel_key: 'prod-guides' } });
    expect(unset.body.errors).toEqual([
      expect.objectContaining({
        field: 'guide.channel_key',
        message: expect.stringContaining('channel prod-guides has no settings in this environment'),
      }),
    ]);
    const missing = await svc('PUT', '/v1/guides/bad?environment=development', { guide: { ...banner, channel_key: 'nowhere' } });
    expect(missing.body.errors).toEqual([
      expect.objectContaining({ field: 'guide.channel_key', message: 'no channel nowhere is configured in this environment' }),
    ]);
  });

  it('requires a message type description, as the reference does: null is fine, left out is a 422 naming it', async () => {
    const messageType = { name: 'Card', preview: '<div>{{ title }}</div>', variants: [{ key: 'default', name: 'Default', fields: [] }] };
    const without = await svc('PUT', '/v1/message_types/card?environment=development', { message_type: messageType });
    expect(without.body).toMatchObject({
      code: 'invalid_params',
      status: 422,
      errors: [expect.objectContaining({ field: 'message_type.description' })],
    });
    const withNull = await svc('PUT', '/v1/message_types/card?environment=development', {
      message_type: { ...messageType, description: null },
    });
    expect(withNull.status).toBe(200);
  });

  it('activates now or for a window, and deactivates, each an event on the guide', async () => {
    const now = await mgmt.guides.activate('getting-started', { ...env, status: true });
    expect(now.guide).toMatchObject({ active: true, active_from: null, active_until: null });
    const from = '2030-01-01T00:00:00.000Z';
    const until = '2030-02-01T00:00:00.000Z';
    const windowed = await mgmt.guides.activate('getting-started', { ...env, from, until });
    expect(windowed.guide).toMatchObject({ active: true, active_from: from, active_until: until });
    const off = await mgmt.guides.activate('getting-started', { ...env, status: false });
    expect(off.guide).toMatchObject({ active: false, active_from: null, active_until: null });
    expect((await t.store.readStream(guideStream('development', 'getting-started'))).map((e) => e.type)).toEqual([
      'GuideUpserted',
      'GuideActivated',
      'GuideActivated',
      'GuideDeactivated',
    ]);
    const backwards = await svc('PUT', '/v1/guides/getting-started/activate?environment=development', { from: until, until: from });
    expect(backwards.status).toBe(422);
    expect((await svc('PUT', '/v1/guides/missing-guide/activate?environment=development', { status: true })).status).toBe(404);
  });

  it('commits and promotes a guide like a workflow; activation stays per environment', async () => {
    await mgmt.commits.commitAll({ ...env, commit_message: 'Guide v1' });
    expect((await mgmt.guides.retrieve('getting-started', { ...env, hide_uncommitted_changes: true })).name).toBe('Getting started');
    await mgmt.commits.promoteAll({ to_environment: 'production' });
    const prod = await mgmt.guides.retrieve('getting-started', { environment: 'production' });
    expect(prod).toMatchObject({ key: 'getting-started', active: false, environment: 'production' });
    expect((await mgmt.guides.activate('getting-started', { environment: 'production', status: true })).guide.active).toBe(true);
    expect((await mgmt.guides.retrieve('getting-started', env)).active).toBe(false);
  });

  it('archives a guide in every environment; it leaves the lists and can be upserted again', async () => {
    expect(await mgmt.guides.archive('getting-started')).toEqual({ result: 'success' });
    for (const environment of ['development', 'production']) {
      expect((await svc('GET', `/v1/guides/getting-started?environment=${environment}`)).status).toBe(404);
      expect((await svc('GET', `/v1/guides?environment=${environment}`)).body.entries).toEqual([]);
    }
    expect((await svc('DELETE', '/v1/guides/getting-started')).status).toBe(404);
    const again = await mgmt.guides.upsert('getting-started', { ...env, guide: banner as never });
    expect(again.guide).toMatchObject({ key: 'getting-started', active: false });
  });
});
