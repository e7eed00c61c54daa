import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startProcess } from '../support/processes';

/**
 * `npm run start:api` and `npm run start:worker` as separate processes on one PostgreSQL: the
 * api appends, the worker projects, and a write still answers only once reads show it.
 */
const describeServer = describeWith('postgres');

describeServer('api and worker as separate processes', () => {
  let db: TestDatabase;
  const key = 'sk_split_roles_0123456789abcdef';
  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('serves reads of its own writes while a separate worker runs the projections', async () => {
    const env = { DATABASE_URL: db.url, BOOTSTRAP_SECRET_KEY: key, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1' };
    const worker = startProcess('dist/apps/worker/src/main.js', { ...env, WORKER_METRICS_PORT: '0' });
    const api = startProcess('dist/apps/api/src/main.js', env);
    try {
      await worker.waitForLog((l) => l.msg === 'projections running');
      const url = String((await api.waitForLog((l) => l.msg === 'listening')).url);
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      let ready = 0;
      for (let i = 0; i < 200 && ready !== 404; i++) {
        ready = (await fetch(`${url}/v1/users/nobody`, { headers: auth })).status;
        if (ready !== 404) await new Promise((r) => setTimeout(r, 50));
      }
      expect(ready).toBe(404); // the bootstrap key became valid through the worker's projection
      for (let i = 0; i < 10; i++) {
        const put = await fetch(`${url}/v1/users/split-${i}`, { method: 'PUT', headers: auth, body: JSON.stringify({ n: i }) });
        expect(put.status).toBe(200);
        const got = await fetch(`${url}/v1/users/split-${i}`, { headers: auth });
        expect(await got.json()).toMatchObject({ id: `split-${i}`, n: i });
      }
      expect(api.logs.some((l) => l.msg === 'projections running')).toBe(false); // the api runs no projections

      // The worker has no API; it answers /metrics on its own port with its own registry.
      const metricsPort = Number((await worker.waitForLog((l) => l.msg === 'worker metrics listening')).port);
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toMatch(/^notify_process_resident_memory_bytes [1-9]/m);
      expect(text).toContain('# TYPE notify_provider_call_duration_seconds histogram');
      expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    } finally {
      expect(await api.stop()).toBe(0);
      expect(await worker.stop()).toBe(0);
    }
  });

  it('stops at start with a message naming each bad setting', async () => {
    const failure = await promisify(execFile)(process.execPath, ['dist/apps/server/src/main.js'], {
      env: { PATH: process.env.PATH, PORT: 'eighty', DATABASE_URL: 'mysql://nope', LOG_LEVEL: 'loud' },
    }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('Invalid configuration');
    expect(failure.stderr).toContain('PORT');
    expect(failure.stderr).toContain('DATABASE_URL');
    expect(failure.stderr).toContain('LOG_LEVEL');
  });
});
