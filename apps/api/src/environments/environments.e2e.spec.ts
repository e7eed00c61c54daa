import { credentialId, hashSecret, revokeApiKey } from '@notify/application';
import { waitFor } from '@notify/testing';
import { cliCommand } from '../../../../test/support/cli';
import { issueServiceToken, startTestApp, TestApp } from '../../../../test/support/test-app';

/** `GET /v1/environments[/{slug}]` and `GET /v1/whoami` through @knocklabs/mgmt and raw HTTP. */
describe('environments and whoami (management API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('lists the environments a page at a time, in their order', async () => {
    await t.newEnvironment('zz-last');
    const all = [];
    for await (const environment of t.mgmt().environments.list({ limit: 1 })) all.push(environment);
    expect(all.map((e) => e.slug)).toEqual(['development', 'zz-last', 'production']);
    expect(all[0]).toEqual({
      slug: 'development',
      name: 'Development',
      order: 0,
      owner: 'system',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_commit_at: null,
      deleted_at: null,
      hide_pii_data: false,
      label_color: null,
    });
    expect(all[1].owner).toBe('user');
    const page = await t.http('GET', '/v1/environments?limit=2', { key: t.serviceToken });
    expect(page.body.page_info).toEqual({ after: expect.any(String), before: null, page_size: 2 });
  });

  it('shows when an environment last received a commit, and when its security mode changed', async () => {
    const env = await t.newEnvironment();
    const created = await t.mgmt().environments.retrieve(env.slug);
    expect(created.updated_at).toBe(created.created_at);
    expect(created.last_commit_at).toBeNull();

    expect(
      (await t.http('PUT', `/v1/environments/${env.slug}/security`, { key: t.serviceToken, body: { enhanced_security_mode: true } }))
        .status,
    ).toBe(200);
    const [changed] = await t.sql<{ at: string }>(
      `SELECT data->>'changed_at' AS at FROM es_events WHERE event_type = 'EnhancedSecurityModeChanged' AND metadata->>'environment' = $1`,
      [env.slug],
    );
    expect((await t.mgmt().environments.retrieve(env.slug)).updated_at).toBe(new Date(changed.at).toISOString());

    const commit = await t.http('PUT', '/v1/partials/env-footer?environment=development&commit=true', {
      key: t.serviceToken,
      body: { partial: { name: 'Footer', type: 'text', content: 'bye' } },
    });
    expect(commit.status).toBe(200);
    const [committed] = await t.sql<{ at: Date }>(`SELECT max(created_at) AS at FROM rm_commits WHERE environment = 'development'`);
    expect((await t.mgmt().environments.retrieve('development')).last_commit_at).toBe(committed.at.toISOString());
    expect((await t.mgmt().environments.retrieve('production')).last_commit_at).toBeNull();
  });

  it('answers 404 for an unknown environment and refuses API keys', async () => {
    const missing = await t.http('GET', '/v1/environments/nowhere', { key: t.serviceToken });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'environment_missing', status: 404 });
    expect((await t.http('GET', '/v1/environments', { key: null })).status).toBe(401);
    // A secret key is a key, but not one for the management API.
    expect((await t.http('GET', '/v1/environments')).status).toBe(403);
    expect((await t.http('GET', '/v1/whoami')).status).toBe(403);
  });

  it('exchanges a service token for a secret key of an environment: the same key each time, a new one once it is revoked', async () => {
    const env = await t.newEnvironment();
    const { api_key } = await t.mgmt().apiKeys.exchange({ environment: env.slug });
    expect(api_key).toMatch(/^sk_[A-Za-z0-9]{40}$/);
    // Usable at once on the public API, in that environment only.
    expect((await t.http('PUT', '/v1/users/exchanged', { key: api_key, body: { name: 'X' } })).status).toBe(200);
    expect((await t.http('GET', '/v1/users/exchanged', { key: api_key })).status).toBe(200);
    expect((await t.http('GET', '/v1/users/exchanged')).status).toBe(404);
    // Again: the same key, and no second key in the log.
    expect((await t.mgmt().apiKeys.exchange({ environment: env.slug })).api_key).toBe(api_key);
    const issued = () =>
      t.sql<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE event_type = 'ApiKeyIssued' AND metadata->>'environment' = $1`, [
        env.slug,
      ]);
    const before = Number((await issued())[0].n);
    await t.mgmt().apiKeys.exchange({ environment: env.slug });
    expect(Number((await issued())[0].n)).toBe(before);
    // Another service token gets a key of its own.
    const other = await issueServiceToken(t.store, { name: 'exchange-other' }, { actor: 'test', environment: null } as never);
    await waitFor(
      async () => (await t.http('GET', '/v1/whoami', { key: other.token })).status === 200,
      'the new service token to be usable',
    );
    const theirs = (await t.mgmt(other.token).apiKeys.exchange({ environment: env.slug })).api_key;
    expect(theirs).not.toBe(api_key);
    // Revoked: the key stops working, and the next exchange answers a new one that works.
    await revokeApiKey(t.store, { environment: env.slug, keyId: credentialId(hashSecret(api_key)) }, { actor: 'test' } as never);
    const replaced = (await t.mgmt().apiKeys.exchange({ environment: env.slug })).api_key;
    expect(replaced).not.toBe(api_key);
    expect((await t.http('GET', '/v1/users/exchanged', { key: replaced })).status).toBe(200);
    await waitFor(
      async () => (await t.http('GET', '/v1/users/exchanged', { key: api_key })).status === 401,
      'the revoked key to be refused',
    );
  });

  it('refuses an exchange for an unknown environment or without a service token', async () => {
    const missing = await t.http('POST', '/v1/api_keys/exchange?environment=nowhere', { key: t.serviceToken });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'environment_missing', status: 404 });
    expect((await t.http('POST', '/v1/api_keys/exchange?environment=development')).status).toBe(403);
    const noEnvironment = await t.http('POST', '/v1/api_keys/exchange', { key: t.serviceToken });
    expect(noEnvironment.status).toBe(422);
    expect(noEnvironment.body.code).toBe('invalid_params');
  });

  it('whoami names the account and the calling service token', async () => {
    expect(await t.mgmt().auth.verify()).toMatchObject({
      account_name: 'Notify',
      account_slug: 'notify',
      type: 'service_token',
      service_token_name: 'bootstrap',
      user_id: null,
    });
  });

  it('notify environments list, environments get and whoami print what these routes answer', async () => {
    const cli = (...argv: string[]) => cliCommand({ NOTIFY_URL: t.url, NOTIFY_SERVICE_TOKEN: t.serviceToken }, ...argv);
    const listed = await cli('environments', 'list');
    expect(listed.code).toBe(0);
    const slugs = listed.out
      .trim()
      .split('\n')
      .map((l) => l.split('  ')[0]);
    const { entries } = (await t.http('GET', '/v1/environments?limit=100', { key: t.serviceToken })).body;
    expect(slugs).toEqual(entries.map((e: { slug: string }) => e.slug));
    expect(listed.out).toMatch(/^development {2}Development {2}order 0 {2}system {2}created \S+ {2}(last commit \S+|no commit)$/m);
    const json = await cli('environments', 'list', '--json');
    expect(
      json.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(entries);

    const one = await cli('environments', 'get', 'development');
    expect(one.code).toBe(0);
    expect(one.out).toContain('slug: development\nname: Development\norder: 0\nowner: system\n');
    expect(JSON.parse((await cli('environments', 'get', 'development', '--json')).out)).toEqual(
      (await t.http('GET', '/v1/environments/development', { key: t.serviceToken })).body,
    );
    const missing = await cli('environments', 'get', 'nowhere');
    expect(missing).toMatchObject({ code: 1, err: expect.stringContaining('404') });

    expect(await cli('whoami')).toEqual({ code: 0, out: 'service token bootstrap on account Notify (notify)\n', err: '' });
    expect(JSON.parse((await cli('whoami', '--json')).out)).toMatchObject({ type: 'service_token', service_token_name: 'bootstrap' });
    expect((await cliCommand({ NOTIFY_URL: t.url, NOTIFY_SERVICE_TOKEN: 'svc_nope' }, 'whoami')).code).toBe(1);
  });
});
