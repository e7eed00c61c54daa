import { requireBackend, testEnv } from '@notify/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);
const cli = path.resolve(__dirname, '../../dist/apps/cli/src/main.js');

/** The operator CLI against the same database as a running service. */
requireBackend('postgres', !!testEnv.postgresUrl);
const describeServer = testEnv.postgresUrl ? describe : describe.skip;

describeServer('cli', () => {
  let t: TestApp;
  const notify = (...args: string[]) => run(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: t.config.DATABASE_URL, LOG_LEVEL: 'error' } });

  beforeAll(async () => {
    t = await startTestApp({ backend: 'postgres' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates an environment and keys the running service accepts, scoped to that environment', async () => {
    expect((await notify('environments', 'create', 'staging', '--name', 'Staging')).stdout).toContain('created environment staging');
    const { stdout } = await notify('keys', 'create', '--environment', 'staging', '--kind', 'secret');
    const key = stdout.trim().split('\n').pop()!;
    expect(key).toMatch(/^sk_[A-Za-z0-9]{40}$/);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await t.http('PUT', '/v1/users/from-cli', { key, body: { name: 'staged' } })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    expect((await t.http('GET', '/v1/users/from-cli')).status).toBe(404); // development does not see it
  });

  it('rejects bad usage with exit code 2 and the usage line', async () => {
    const failure = await notify('keys', 'create', '--environment', 'staging', '--kind', 'root').catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('--kind must be secret or publishable');
  });

  it('rebuilds a read model from the log to the same rows', async () => {
    for (let i = 0; i < 5; i++) await t.http('PUT', `/v1/users/rb-${i}`, { body: { n: i } });
    await t.http('DELETE', '/v1/users/rb-2');
    const before = await t.sql('SELECT * FROM rm_users ORDER BY environment, id');
    const { stdout } = await notify('projections', 'rebuild', 'users');
    expect(stdout).toMatch(/rebuilt users: \d+ events/);
    expect(await t.sql('SELECT * FROM rm_users ORDER BY environment, id')).toEqual(before);
    expect(before.map((u: { id: string }) => u.id)).not.toContain('rb-2');
  });
});
