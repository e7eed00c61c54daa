import { tagStream } from '@notify/domain';
import { activeWorkflow } from '../../../../test/support/engine';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** The account's tag catalog: upsert, list by name, delete; workflows carry tags in their own field. */
describe('tags (management API)', () => {
  let t: TestApp;
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a tag, replaces it (omitted fields become null), lists the catalog by name and deletes a tag', async () => {
    const created = await svc('PUT', '/v1/tags/billing', { tag: { description: 'Billing workflows', color: '#3B82F6' } });
    expect(created.status).toBe(200);
    expect(created.body.tag).toEqual({
      name: 'billing',
      description: 'Billing workflows',
      color: '#3B82F6',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await svc('PUT', '/v1/tags/alerts', { tag: {} })).body.tag).toMatchObject({ name: 'alerts', description: null, color: null });

    const replaced = await svc('PUT', '/v1/tags/billing', { tag: { color: '#fff' } });
    expect(replaced.body.tag).toMatchObject({ name: 'billing', description: null, color: '#fff', created_at: created.body.tag.created_at });
    // The same tag again records nothing.
    await svc('PUT', '/v1/tags/billing', { tag: { color: '#fff' } });
    expect((await t.store.readStream(tagStream('billing'))).map((e) => e.type)).toEqual(['TagUpserted', 'TagUpserted']);

    const list = await svc('GET', '/v1/tags');
    expect(list.status).toBe(200);
    expect(list.body.entries.map((e: { name: string }) => e.name)).toEqual(['alerts', 'billing']);

    expect((await svc('DELETE', '/v1/tags/alerts')).status).toBe(204);
    expect((await svc('GET', '/v1/tags')).body.entries.map((e: { name: string }) => e.name)).toEqual(['billing']);
    expect((await t.store.readStream(tagStream('alerts'))).map((e) => e.type)).toEqual(['TagUpserted', 'TagDeleted']);
  });

  it('refuses a color that is not hex and unknown fields with 422 invalid_params', async () => {
    const res = await svc('PUT', '/v1/tags/bad', { tag: { color: 'blue', owner: 'me' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_params');
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['tag.color']));
    expect((await svc('GET', '/v1/tags')).body.entries.map((e: { name: string }) => e.name)).not.toContain('bad');
  });

  it('is reached with a service token only', async () => {
    expect((await t.http('GET', '/v1/tags', { key: t.env.secretKey })).status).toBe(403);
  });

  it('lists the workflows carrying a tag (?tag=, an addition to the reference)', async () => {
    const steps = [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi' } }];
    await activeWorkflow(t, 'tagged-invoice', { tags: ['billing', 'finance'], steps });
    await activeWorkflow(t, 'tagged-alert', { tags: ['alerts'], steps });
    await activeWorkflow(t, 'untagged', { steps });
    const keys = async (query: string) =>
      (await svc('GET', `/v1/workflows?environment=development${query}`)).body.entries.map((w: { key: string }) => w.key);
    expect(await keys('&tag=billing')).toEqual(['tagged-invoice']);
    expect(await keys('&tag=alerts&limit=1')).toEqual(['tagged-alert']);
    expect(await keys('&tag=nothing')).toEqual([]);
    expect(await keys('')).toEqual(expect.arrayContaining(['tagged-invoice', 'tagged-alert', 'untagged']));
  });
});
