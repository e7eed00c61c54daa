import { itemSchemaStream } from '@notify/domain';
import { activeWorkflow } from '../../../../test/support/engine';
import { eventually } from '../../../../test/support/recipients';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Item schemas: declared properties per environment, enforced on the writes of users, tenants and objects. */
describe('item schemas (management API) and their enforcement', () => {
  let t: TestApp;
  const ENV = 'development';
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const pub = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.env.secretKey, body });
  const fields = (res: { body: { errors?: { field: string }[] } }) => (res.body.errors ?? []).map((e) => e.field);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds properties, changes only the fields given, and lists and gets the schemas of the environment', async () => {
    const put = await svc('PUT', `/v1/schemas/user?environment=${ENV}`, {
      properties: [
        { key: 'plan', type: 'string', description: 'Billing plan', preview_text: 'Enterprise' },
        { key: 'seats', type: 'integer' },
        { key: 'address.city', type: 'string' },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      item_type: 'user',
      item_id: null,
      properties: [
        { key: 'plan', type: 'string', description: 'Billing plan', preview_text: 'Enterprise', item_type: null, visible: true },
        { key: 'seats', type: 'integer', description: null, preview_text: null, item_type: null, visible: true },
        { key: 'address.city', type: 'string', description: null, preview_text: null, item_type: null, visible: true },
      ],
    });
    const hidden = await svc('PUT', `/v1/schemas/user?environment=${ENV}`, { properties: [{ key: 'plan', visible: false }] });
    expect(hidden.body.properties[0]).toMatchObject({ key: 'plan', type: 'string', description: 'Billing plan', visible: false });
    expect(hidden.body.properties).toHaveLength(3);

    const objects = await svc('PUT', `/v1/schemas/object?environment=${ENV}&collection=projects`, {
      properties: [{ key: 'budget', type: 'number' }],
    });
    expect(objects.body).toMatchObject({ item_type: 'object', item_id: 'projects' });

    const list = await svc('GET', `/v1/schemas?environment=${ENV}`);
    expect(list.status).toBe(200);
    expect(list.body.entries.map((e: { item_type: string; item_id: string | null }) => [e.item_type, e.item_id])).toEqual([
      ['user', null],
      ['object', 'projects'],
    ]);
    expect((await svc('GET', `/v1/schemas?environment=${ENV}&item_type=object`)).body.entries).toHaveLength(1);
    expect((await svc('GET', `/v1/schemas/object?environment=${ENV}&collection=projects`)).body.properties[0].key).toBe('budget');
    // A schema nothing was declared for has no properties; production has its own schemas.
    expect((await svc('GET', `/v1/schemas/tenant?environment=${ENV}`)).body).toEqual({
      item_type: 'tenant',
      item_id: null,
      properties: [],
    });
    expect((await svc('GET', '/v1/schemas?environment=production')).body.entries).toEqual([]);
    expect((await t.store.readStream(itemSchemaStream(ENV, 'user', null))).map((e) => e.type)).toEqual([
      'ItemSchemaUpserted',
      'ItemSchemaUpserted',
    ]);
  });

  it('validates a change without saving it, and refuses bad requests with 422 invalid_params', async () => {
    const before = await t.store.readStream(itemSchemaStream(ENV, 'tenant', null));
    const checked = await svc('PUT', `/v1/schemas/tenant/validate?environment=${ENV}`, { properties: [{ key: 'tier', type: 'string' }] });
    expect(checked.status).toBe(200);
    expect(checked.body.properties).toEqual([expect.objectContaining({ key: 'tier', type: 'string' })]);
    expect(await t.store.readStream(itemSchemaStream(ENV, 'tenant', null))).toHaveLength(before.length);

    const badType = await svc('PUT', `/v1/schemas/tenant?environment=${ENV}`, { properties: [{ key: 'tier', type: 'varchar' }] });
    expect(badType.status).toBe(422);
    expect(badType.body.code).toBe('invalid_params');
    expect(fields(badType)).toContain('properties.0.type');
    const twice = await svc('PUT', `/v1/schemas/tenant/validate?environment=${ENV}`, {
      properties: [{ key: 'tier' }, { key: 'tier', type: 'string' }],
    });
    expect(fields(twice)).toContain('properties.1.key');
    const noCollection = await svc('PUT', `/v1/schemas/object?environment=${ENV}`, { properties: [] });
    expect(noCollection.status).toBe(422);
    expect(fields(noCollection)).toEqual(['collection']);
  });

  it('refuses a user, object or tenant whose properties do not have the declared types, before writing anything', async () => {
    await svc('PUT', `/v1/schemas/tenant?environment=${ENV}`, { properties: [{ key: 'tier', type: 'string' }] });

    const bad = await pub('PUT', '/v1/users/schema-ada', { name: 'Ada', plan: 5, seats: 2.5, address: { city: 7 } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_params');
    expect(fields(bad).sort()).toEqual(['address.city', 'plan', 'seats']);
    expect((await pub('GET', '/v1/users/schema-ada')).status).toBe(404);

    const good = await pub('PUT', '/v1/users/schema-ada', { name: 'Ada', plan: 'pro', seats: 3, address: { city: 'Paris' }, extra: 1 });
    expect(good.status).toBe(200);
    // null clears a declared property.
    expect((await pub('PUT', '/v1/users/schema-ada', { plan: null })).status).toBe(200);

    expect(fields(await pub('PUT', '/v1/objects/projects/p1', { budget: 'lots' }))).toEqual(['budget']);
    expect((await pub('PUT', '/v1/objects/projects/p1', { budget: 1200.5 })).status).toBe(200);
    expect((await pub('PUT', '/v1/objects/other/p1', { budget: 'lots' })).status).toBe(200);

    expect(fields(await pub('PUT', '/v1/tenants/acme', { tier: 3 }))).toEqual(['tier']);
    expect((await pub('PUT', '/v1/tenants/acme', { tier: 'gold' })).status).toBe(200);
  });

  it('refuses a trigger whose inline recipient breaks the user schema', async () => {
    await activeWorkflow(t, 'schema-alert', {
      steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi' } }],
    });
    const res = await pub('POST', '/v1/workflows/schema-alert/trigger', { recipients: [{ id: 'schema-bob', seats: 'many' }] });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['seats']);
    expect((await pub('GET', '/v1/users/schema-bob')).status).toBe(404);
  });

  it('fails the items of a bulk identify that break the user schema, and identifies the others', async () => {
    const knock = t.knock();
    const op = await knock.users.bulk.identify({
      users: [{ id: 'schema-bulk-1', plan: 'pro' }, { id: 'schema-bulk-2', plan: 42 } as never, { id: 'schema-bulk-3', seats: 4 }],
    });
    const done = await eventually(
      () => knock.bulkOperations.get(op.id),
      (o) => o.status === 'completed' || o.status === 'failed',
    );
    expect(done).toMatchObject({
      status: 'completed',
      success_count: 2,
      error_count: 1,
      error_items: [{ id: 'schema-bulk-2', collection: null }],
    });
    expect((await pub('GET', '/v1/users/schema-bulk-2')).status).toBe(404);
    expect((await pub('GET', '/v1/users/schema-bulk-3')).body).toMatchObject({ seats: 4 });
  });
});
