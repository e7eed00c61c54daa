import { EXAMPLE_WORKFLOW_KEY } from '@notify/application';
import { configureChannel } from '../../support/channels';
import { startTestApp, TestApp, TestEnvironment } from '../../support/test-app';

/**
 * Many writers on one recipient at once: every request answers 2xx (a lost revision race is
 * decided again on the new state, never surfaced), the stream's revisions are contiguous and
 * the final state holds every writer's change.
 */
describe('concurrent writes to one recipient', () => {
  // Each writer that loses the race decides again on the new state, so the work grows with the
  // square of the writers: 20 are enough to make every request race.
  const N = 20;
  const M = 15;
  let t: TestApp;
  let env: TestEnvironment;

  beforeAll(async () => {
    t = await startTestApp();
    env = t.env;
  });
  afterAll(async () => {
    await t?.close();
  });

  const all = (n: number, call: (i: number) => Promise<{ status: number; body: unknown }>) =>
    Promise.all(Array.from({ length: n }, (_, i) => call(i)));
  const statuses = (results: { status: number }[]) => [...new Set(results.map((r) => r.status))];
  const revisions = async (stream: string) =>
    (await t.sql<{ r: string }>('SELECT stream_revision AS r FROM es_events WHERE stream_id = $1 ORDER BY stream_revision', [stream])).map(
      (row) => Number(row.r),
    );
  const contiguous = (n: number) => Array.from({ length: n }, (_, i) => i);

  it(`answers ${N} concurrent identifies of one user with 200, each change kept once, revisions contiguous`, async () => {
    const results = await all(N, (i) => t.http('PUT', '/v1/users/contended', { key: env.secretKey, body: { [`p${i}`]: i } }));
    expect(statuses(results)).toEqual([200]);
    expect(await revisions(`user-${env.slug}-contended`)).toEqual(contiguous(N));
    const user = (await t.http('GET', '/v1/users/contended', { key: env.secretKey })).body;
    for (let i = 0; i < N; i++) expect(user[`p${i}`]).toBe(i);
  });

  it('accepts concurrent triggers that identify one recipient inline, keeping every change', async () => {
    const results = await all(M, (i) =>
      t.http('POST', `/v1/workflows/${EXAMPLE_WORKFLOW_KEY}/trigger`, {
        key: env.secretKey,
        body: { recipients: [{ id: 'inline-contended', [`p${i}`]: i }] },
      }),
    );
    expect(statuses(results)).toEqual([200]);
    expect(new Set(results.map((r) => (r.body as { workflow_run_id: string }).workflow_run_id)).size).toBe(M);
    const user = (await t.http('GET', '/v1/users/inline-contended', { key: env.secretKey })).body;
    for (let i = 0; i < M; i++) expect(user[`p${i}`]).toBe(i);
    expect(await revisions(`user-${env.slug}-inline-contended`)).toEqual(contiguous(M));
  });

  it('answers concurrent sets of one object and one tenant with 200', async () => {
    const objects = await all(M, (i) => t.http('PUT', '/v1/objects/projects/contended', { key: env.secretKey, body: { [`p${i}`]: i } }));
    const tenants = await all(M, (i) => t.http('PUT', '/v1/tenants/contended', { key: env.secretKey, body: { [`p${i}`]: i } }));
    expect(statuses(objects)).toEqual([200]);
    expect(statuses(tenants)).toEqual([200]);
    const object = (await t.http('GET', '/v1/objects/projects/contended', { key: env.secretKey })).body;
    const tenant = (await t.http('GET', '/v1/tenants/contended', { key: env.secretKey })).body;
    for (let i = 0; i < M; i++) {
      expect(object.properties[`p${i}`]).toBe(i);
      expect(tenant[`p${i}`]).toBe(i);
    }
  });

  it('answers concurrent preference, channel data, subscription and merge writes on one user with 2xx', async () => {
    const push = await configureChannel(t, { type: 'push', provider: 'push_fcm', environments: [env.slug] });
    await t.http('PUT', '/v1/users/aspects', { key: env.secretKey, body: {} });
    const preferences = await all(20, (i) =>
      t.http('PUT', `/v1/users/aspects/preferences/set-${i % 4}`, { key: env.secretKey, body: { workflows: { [`wf-${i}`]: true } } }),
    );
    const channelData = await all(20, (i) =>
      t.http('PUT', `/v1/users/aspects/channel_data/${push.id}`, { key: env.secretKey, body: { data: { tokens: [`token-${i}`] } } }),
    );
    const subscriptions = await all(20, (i) =>
      t.http('POST', '/v1/objects/projects/subscribed/subscriptions', {
        key: env.secretKey,
        body: { recipients: ['aspects', `member-${i}`] },
      }),
    );
    for (let i = 0; i < 10; i++) await t.http('PUT', `/v1/users/source-${i}`, { key: env.secretKey, body: {} });
    const merges = await all(10, (i) =>
      t.http('POST', '/v1/users/aspects/merge', { key: env.secretKey, body: { from_user_id: `source-${i}` } }),
    );
    expect(statuses(preferences)).toEqual([200]);
    expect(statuses(channelData)).toEqual([200]);
    expect(statuses(subscriptions)).toEqual([200]);
    expect(statuses(merges)).toEqual([200]);
    for (let i = 0; i < 10; i++) expect((await t.http('GET', `/v1/users/source-${i}`, { key: env.secretKey })).status).toBe(404);
    expect((await t.http('GET', '/v1/users/aspects', { key: env.secretKey })).status).toBe(200);
    const subscribers = (await t.http('GET', '/v1/objects/projects/subscribed/subscriptions?page_size=50', { key: env.secretKey })).body
      .entries;
    expect(subscribers).toHaveLength(21);
  });
});
