import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { userToken } from '../../support/browser-access';
import { repoRoot, ServiceProcess, startProcess } from '../../support/processes';

const describeServer = describeWith('postgres');

/**
 * Credential changes take effect on the very next request, on every api instance (issue 15,
 * ADR 0136): two api processes and a worker on one database; changes are made through api A (or
 * the CLI, a third process) and the next request goes to api B, whose policy for the
 * environment was loaded just before the change. With a time-based cache B answered from the
 * old policy for up to 2 s.
 */
describeServer('credential changes seen by the next request on another api instance', () => {
  const sk = `sk_${randomBytes(16).toString('hex')}`;
  const pk = `pk_${randomBytes(16).toString('hex')}`;
  const serviceToken = randomBytes(24).toString('hex');
  let db: TestDatabase;
  let processes: ServiceProcess[] = [];
  let urlA: string;
  let urlB: string;

  const call = async (url: string, method: string, route: string, options: { key: string; token?: string; body?: unknown }) => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${options.key}`,
        ...(options.token ? { 'x-knock-user-token': options.token } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** A browser read on api B: publishable key, the user token if any. */
  const readOnB = (user: string, token?: string) => call(urlB, 'GET', `/v1/users/${user}`, { key: pk, token });
  /** A management change on api A; it answers once reads show it. */
  const changeOnA = async (method: string, route: string, body?: unknown) => {
    const res = await call(urlA, method, route, { key: serviceToken, body });
    expect([200, 201]).toContain(res.status);
    return res.body;
  };

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    const env = {
      DATABASE_URL: db.url,
      BOOTSTRAP_SECRET_KEY: sk,
      BOOTSTRAP_PUBLISHABLE_KEY: pk,
      BOOTSTRAP_SERVICE_TOKEN: serviceToken,
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    const worker = startProcess('dist/apps/worker/src/main.js', env);
    const apiA = startProcess('dist/apps/api/src/main.js', env);
    const apiB = startProcess('dist/apps/api/src/main.js', env);
    processes = [worker, apiA, apiB];
    await worker.waitForLog((l) => l.msg === 'projections running');
    [urlA, urlB] = await Promise.all(
      [apiA, apiB].map(async (p) => String((await p.waitForLog((l) => l.msg === 'listening')).url).replace('[::1]', '127.0.0.1')),
    );
    // The bootstrap keys become usable through the worker's projection.
    for (let i = 0; (await call(urlA, 'PUT', '/v1/users/alice', { key: sk, body: { name: 'Alice' } })).status !== 200; i++) {
      if (i > 300) throw new Error('bootstrap key never became usable');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await call(urlA, 'PUT', '/v1/users/bob', { key: sk, body: { name: 'Bob' } })).status).toBe(200);
  });
  afterAll(async () => {
    for (const p of processes) await p.stop();
    await db?.close();
  });

  it('a new signing key verifies tokens at once; after a rotation the old key’s tokens are refused at once', async () => {
    // B has loaded the environment's policy: no keys, tokens optional.
    expect(await readOnB('bob')).toMatchObject({ status: 200 });
    const first = await changeOnA('POST', '/v1/environments/development/signing_keys');
    expect(await readOnB('alice', await userToken('alice', first.private_key))).toMatchObject({ status: 200, body: { id: 'alice' } });

    const second = await changeOnA('POST', '/v1/environments/development/signing_keys/rotate');
    expect(await readOnB('alice', await userToken('alice', first.private_key))).toMatchObject({
      status: 401,
      body: { code: 'invalid_user_token' },
    });
    expect(await readOnB('alice', await userToken('alice', second.private_key))).toMatchObject({ status: 200 });
  });

  it('enhanced security on refuses the next token-less read at once; off lets the next one in', async () => {
    expect(await readOnB('bob')).toMatchObject({ status: 200 });
    await changeOnA('PUT', '/v1/environments/development/security', { enhanced_security_mode: true });
    expect(await readOnB('bob')).toMatchObject({ status: 401, body: { code: 'missing_user_token' } });
    await changeOnA('PUT', '/v1/environments/development/security', { enhanced_security_mode: false });
    expect(await readOnB('bob')).toMatchObject({ status: 200 });
  });

  it('a key revoked by the CLI (another process) is refused by the next request once the read model shows it', async () => {
    const created = await changeOnA('POST', '/v1/environments/development/signing_keys');
    const token = await userToken('alice', created.private_key);
    expect(await readOnB('alice', token)).toMatchObject({ status: 200 });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(repoRoot, 'dist/apps/cli/src/main.js'), 'signing-keys', 'revoke', created.id, '--environment', 'development'],
      {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url, LOG_LEVEL: 'silent' },
        cwd: repoRoot,
      },
    );
    expect(stdout).toContain(`revoked signing key ${created.id}`);
    // The CLI does not wait for the read model; the test waits for the state it needs.
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    try {
      for (
        let i = 0;
        (await admin.query('SELECT 1 FROM rm_signing_keys WHERE id = $1 AND revoked_at IS NOT NULL', [created.id])).rowCount === 0;
        i++
      ) {
        if (i > 300) throw new Error('the revocation never reached the read model');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await admin.end();
    }
    expect(await readOnB('alice', token)).toMatchObject({ status: 401, body: { code: 'invalid_user_token' } });
  });

  it('a workflow changed through api A is the one the next trigger on api B uses, though B had it cached (ADR 0217)', async () => {
    const workflow = (schema?: Record<string, unknown>) => ({
      workflow: {
        name: 'cached',
        steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', channel_type: 'in_app_feed', template: { markdown_body: 'hi' } }],
        ...(schema ? { trigger_data_json_schema: schema } : {}),
      },
    });
    const trigger = (data: Record<string, unknown>) =>
      call(urlB, 'POST', '/v1/workflows/cached/trigger', { key: sk, body: { recipients: ['alice'], data } });
    await changeOnA('PUT', '/v1/workflows/cached?environment=development', workflow());
    await changeOnA('PUT', '/v1/workflows/cached/activate?environment=development', { status: true });
    // B loads the workflow and caches it under the configuration version it read with the key.
    expect((await trigger({})).status).toBe(200);
    expect((await trigger({})).status).toBe(200);

    await changeOnA('PUT', '/v1/workflows/cached/activate?environment=development', { status: false });
    const inactive = await trigger({});
    expect(inactive.status).toBe(400);
    expect(inactive.body.code).toBe('workflow_inactive');

    await changeOnA('PUT', '/v1/workflows/cached?environment=development', workflow({ type: 'object', required: ['order_id'] }));
    await changeOnA('PUT', '/v1/workflows/cached/activate?environment=development', { status: true });
    const refused = await trigger({});
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid_params');
    expect((await trigger({ order_id: 'o-1' })).status).toBe(200);
  });
});
