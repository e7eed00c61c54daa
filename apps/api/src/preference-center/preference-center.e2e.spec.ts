import { preferenceCenterStream } from '@notify/domain';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Preference categories and the preference center configuration in the management API (ADR 0189). */
describe('preference categories and preference center (management API)', () => {
  let t: TestApp;
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, lists by name, answers the existing category on a repeat, and archives', async () => {
    const first = await svc('PUT', '/v1/preference_categories/marketing');
    expect(first.status).toBe(200);
    expect(first.body.preference_category).toEqual({
      name: 'marketing',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      archived_at: null,
    });
    expect((await svc('PUT', '/v1/preference_categories/billing')).status).toBe(200);
    const again = await svc('PUT', '/v1/preference_categories/marketing');
    expect(again.body.preference_category.created_at).toBe(first.body.preference_category.created_at);

    const list = await svc('GET', '/v1/preference_categories');
    expect(list.status).toBe(200);
    expect(list.body.entries.map((c: { name: string }) => c.name)).toEqual(['billing', 'marketing']);

    expect((await svc('DELETE', '/v1/preference_categories/billing')).status).toBe(204);
    expect((await svc('GET', '/v1/preference_categories')).body.entries.map((c: { name: string }) => c.name)).toEqual(['marketing']);
    const gone = await svc('DELETE', '/v1/preference_categories/billing');
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'resource_missing', status: 404 });
    expect((await svc('PUT', '/v1/preference_categories/has%20space')).status).toBe(422);
  });

  it('needs a service token', async () => {
    expect((await t.http('GET', '/v1/preference_categories')).status).toBe(403);
    expect((await t.http('GET', '/v1/preference_categories', { key: null })).status).toBe(401);
  });

  it('answers the default preference center until configured, sets it, keeps enabled, and resets to the default', async () => {
    const initial = await svc('GET', '/v1/preference_center?environment=development');
    expect(initial.status).toBe(200);
    expect(initial.body.enabled).toBe(true);
    expect(initial.body.config.rows.length).toBeGreaterThan(0);

    const config = {
      title: 'Your notifications',
      body: 'Choose what reaches you',
      show_account_name: false,
      rows: [
        { type: 'category', name: 'Marketing', identifier: 'marketing', channel_types: ['email', 'sms'] },
        { type: 'channel_types', name: 'Channels', channel_types: [] },
      ],
    };
    const set = await svc('PUT', '/v1/preference_center?environment=development', { config, enabled: false });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ config, enabled: false });
    expect(await svc('GET', '/v1/preference_center?environment=development')).toMatchObject({ body: { config, enabled: false } });

    // Without `enabled` the flag is kept; a repeat of the same content records nothing.
    const events = async () => (await t.store.readStream(preferenceCenterStream('development'))).length;
    const before = await events();
    expect((await svc('PUT', '/v1/preference_center?environment=development', { config })).body.enabled).toBe(false);
    expect(await events()).toBe(before);

    // Another environment has its own.
    const staging = await t.newEnvironment();
    expect((await svc('GET', `/v1/preference_center?environment=${staging.slug}`)).body.config.title).toBe(initial.body.config.title);

    const reset = await svc('PUT', '/v1/preference_center/reset?environment=development');
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ config: initial.body.config, enabled: false });
  });

  it('refuses a malformed configuration with the offending fields, writing nothing', async () => {
    const before = (await t.store.readStream(preferenceCenterStream('development'))).length;
    const bad = await svc('PUT', '/v1/preference_center?environment=development', {
      config: {
        title: 'T',
        body: 'B',
        rows: [
          { type: 'category', name: 'No identifier' },
          { type: 'nope', name: 'x' },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_params');
    const fields = (bad.body.errors ?? bad.body.error?.errors ?? []).map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['config.rows.0.identifier', 'config.rows.1.type']));
    expect((await svc('PUT', '/v1/preference_center?environment=development', {})).status).toBe(422);
    expect((await svc('GET', '/v1/preference_center')).status).toBe(422);
    expect((await t.store.readStream(preferenceCenterStream('development'))).length).toBe(before);
  });
});
