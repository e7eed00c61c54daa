import { waitFor, describeWith } from '@notify/testing';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/**
 * API key management with a service token (ADR 0152), on two api processes sharing one database:
 * a revocation made through one is refused by the other from the moment the call returns.
 */
/** Two api processes on one database need a Postgres server (the embedded database serves one process). */
const describeServer = describeWith('postgres');

describeServer('API keys (management API)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ backend: 'postgres', keepDatabase: true });
    b = await startTestApp({ databaseUrl: a.databaseUrl, env: { SECRETS_KEY: a.config.SECRETS_KEY! } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const mgmt = (t: TestApp, method: string, path: string, body?: unknown) => t.http(method, path, { key: a.serviceToken, body });
  const status = async (t: TestApp, key: string) => (await t.http('GET', '/v1/users?page_size=1', { key })).status;

  it('creates a key whose secret is answered once and stored only hashed, and records its use', async () => {
    const created = await mgmt(a, 'POST', '/v1/api_keys?environment=development', { kind: 'secret', name: 'ci' });
    expect(created.status).toBe(201);
    const { secret, ...key } = created.body;
    expect(secret).toMatch(/^sk_/);
    expect(key).toMatchObject({ environment: 'development', kind: 'secret', name: 'ci', status: 'active', last_used_at: null });
    expect(secret.endsWith(key.hint)).toBe(true);
    // Usable at once, on both processes.
    expect(await status(a, secret)).toBe(200);
    expect(await status(b, secret)).toBe(200);

    const used = await waitFor(async () => {
      const got = await mgmt(b, 'GET', `/v1/api_keys/${key.id}?environment=development`);
      return got.body.last_used_at && got.body;
    }, 'last use recorded');
    expect(used).not.toHaveProperty('secret');
    const list = await mgmt(a, 'GET', '/v1/api_keys?environment=development');
    expect(list.body.entries.map((k: { id: string }) => k.id)).toContain(key.id);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    // The action is an audited event, by the service token, without the secret.
    const [event] = await a.sql(`SELECT data, metadata FROM es_events WHERE event_type = 'ApiKeyIssued' AND data->>'key_id' = $1`, [
      key.id,
    ]);
    expect(event.metadata.actor).toMatch(/^service:/);
    expect(event.data).toMatchObject({ name: 'ci', kind: 'secret', key_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await a.sql(`SELECT 1 FROM es_events WHERE data::text LIKE $1 OR metadata::text LIKE $1`, [`%${secret}%`])).toEqual([]);
  });

  it('rotates with an overlap (both secrets work until it ends) or without one (the old one stops at once)', async () => {
    const first = (await mgmt(a, 'POST', '/v1/api_keys?environment=development', { kind: 'publishable', name: 'web' })).body;
    const rotated = await mgmt(a, 'POST', `/v1/api_keys/${first.id}/rotate?environment=development`, { overlap_seconds: 3600 });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ kind: 'publishable', name: 'web', status: 'active', secret: expect.stringMatching(/^pk_/) });
    expect(rotated.body.rotated).toMatchObject({ id: first.id, status: 'expiring', replaced_by: rotated.body.id });
    expect(Date.parse(rotated.body.rotated.expires_at)).toBeGreaterThan(Date.parse(rotated.body.created_at));
    // Publishable keys reach only public routes: 403 (authenticated) rather than 401.
    expect(await status(b, first.secret)).toBe(403);
    expect(await status(b, rotated.body.secret)).toBe(403);
    const again = await mgmt(a, 'POST', `/v1/api_keys/${first.id}/rotate?environment=development`, { overlap_seconds: 60 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'api_key_rotated' });

    const second = (await mgmt(a, 'POST', '/v1/api_keys?environment=development', { kind: 'secret' })).body;
    const cut = await mgmt(a, 'POST', `/v1/api_keys/${second.id}/rotate?environment=development`, { overlap_seconds: 0 });
    expect(cut.body.rotated.status).toBe('expired');
    expect(await status(b, second.secret)).toBe(401);
    expect(await status(b, cut.body.secret)).toBe(200);
    const [event] = await a.sql(`SELECT data FROM es_events WHERE event_type = 'ApiKeyRotated' AND data->>'key_id' = $1`, [second.id]);
    expect(event.data).toMatchObject({ replaced_by: cut.body.id });
  });

  it('revokes through one process and the other refuses the key at once', async () => {
    const key = (await mgmt(a, 'POST', '/v1/api_keys?environment=development', { kind: 'secret' })).body;
    expect(await status(b, key.secret)).toBe(200);
    const revoked = await mgmt(a, 'DELETE', `/v1/api_keys/${key.id}?environment=development`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'revoked', revoked_at: expect.any(String) });
    expect(await status(b, key.secret)).toBe(401);
    expect(await status(a, key.secret)).toBe(401);
    // Revoking again changes nothing; a key of another environment is not found here.
    expect((await mgmt(b, 'DELETE', `/v1/api_keys/${key.id}?environment=development`)).status).toBe(200);
    expect((await mgmt(b, 'DELETE', `/v1/api_keys/${key.id}?environment=production`)).status).toBe(404);
    const active = await mgmt(a, 'GET', '/v1/api_keys?environment=development&active=true');
    expect(active.body.entries.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('refuses bad input and API keys', async () => {
    const bad = await mgmt(a, 'POST', '/v1/api_keys?environment=development', { kind: 'root' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'invalid_params', status: 422 });
    const overlap = await mgmt(a, 'POST', `/v1/api_keys/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/rotate?environment=development`, {
      overlap_seconds: -1,
    });
    expect(overlap.status).toBe(422);
    expect((await mgmt(a, 'GET', '/v1/api_keys')).status).toBe(422);
    expect((await mgmt(a, 'GET', '/v1/api_keys?environment=nowhere')).status).toBe(404);
    expect((await a.http('GET', '/v1/api_keys?environment=development')).status).toBe(403);
  });
});
