import { startTestApp, TestApp } from '../../../../../test/support/test-app';

/** Granular preference updates on users and objects: each merges one part and answers the whole set. */
describe('granular preference updates', () => {
  let t: TestApp;
  const put = (path: string, body: unknown) => t.http('PUT', path, { body });

  beforeAll(async () => {
    t = await startTestApp();
    await t.knock().users.update('gran-ada', { name: 'Ada' });
    await t.knock().objects.set('projects', 'p1', { name: 'P1' } as never);
    await t.knock().tenants.set('gran-acme', { name: 'Acme', settings: { preference_set: { categories: { marketing: false } } } } as never);
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const [who, base] of [
    ['a user', '/v1/users/gran-ada/preferences/default'],
    ['an object', '/v1/objects/projects/p1/preferences/default'],
  ] as const) {
    it(`updates ${who}'s set part by part, keeping the rest`, async () => {
      expect((await put(base, { channel_types: { sms: false }, workflows: { old: true } })).status).toBe(200);
      expect((await put(`${base}/workflows/welcome`, { subscribed: false })).body.workflows).toEqual({ old: true, welcome: false });
      const workflows = await put(`${base}/workflows`, { workflows: { digest: { channel_types: { email: false } } } });
      expect(workflows.body.workflows).toEqual({ old: true, welcome: false, digest: { channel_types: { email: false } } });
      expect((await put(`${base}/categories/billing`, { channel_types: { push: false } })).body.categories).toEqual({
        billing: { channel_types: { push: false } },
      });
      expect((await put(`${base}/categories`, { categories: { news: true } })).body.categories).toEqual({
        billing: { channel_types: { push: false } },
        news: true,
      });
      expect((await put(`${base}/channel_types/email`, { subscribed: false })).body.channel_types).toEqual({ sms: false, email: false });
      const types = await put(`${base}/channel_types`, { channel_types: { push: true } });
      expect(types.status).toBe(200);
      expect(types.body).toMatchObject({
        id: 'default',
        channel_types: { sms: false, email: false, push: true },
        workflows: { old: true },
      });
      const read = await t.http('GET', base);
      expect(read.body).toEqual(types.body);
    });
  }

  it('refuses bad input with the offending fields, and an unknown channel type', async () => {
    const bad = await put('/v1/users/gran-ada/preferences/default/workflows/welcome', { subscribed: 'no' });
    // Named as the wrong type it is (zod alone would call `subscribed` an unknown key of the setting object).
    expect(bad).toMatchObject({
      status: 422,
      body: {
        code: 'invalid_params',
        type: 'invalid_request_error',
        errors: [{ field: 'subscribed', type: 'invalid_type', message: expect.stringContaining('expected boolean') }],
      },
    });
    const mixed = await put('/v1/users/gran-ada/preferences/default/categories/billing', {
      subscribed: true,
      channel_types: { sms: false },
    });
    expect(mixed).toMatchObject({ status: 422, body: { errors: [{ field: 'subscribed', message: expect.stringContaining('alone') }] } });
    // Nothing written: the set is as the test before left it.
    const after = await t.http('GET', '/v1/users/gran-ada/preferences/default');
    expect(after.body.workflows.welcome).toBe(false);
    expect(after.body.categories.billing).toEqual({ channel_types: { push: false } });
    expect((await put('/v1/users/gran-ada/preferences/default/channel_types/fax', { subscribed: false })).status).toBe(422);
    expect((await put('/v1/users/gran-ada/preferences/default/categories', { marketing: false })).status).toBe(422);
  });

  it("a user's set for a tenant layers over the tenant's default", async () => {
    await put('/v1/users/gran-ada/preferences/gran-acme/categories/marketing', { subscribed: true });
    const resolved = await t.http('GET', '/v1/users/gran-ada/preferences/default?tenant=gran-acme');
    expect(resolved.body.categories).toMatchObject({ marketing: true });
  });
});
