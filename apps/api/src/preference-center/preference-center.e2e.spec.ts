import { PreferenceLinks } from '@notify/application';
import { preferenceCenterStream } from '@notify/domain';
import { PREFERENCE_LINKS } from '@notify/platform';
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

/** The preference center in the public API, its signed links and the hosted page over plain HTTP (ADR 0190). */
describe('preference center links and hosted page', () => {
  let t: TestApp;
  let links: PreferenceLinks;
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const eventCount = async () => Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
  const form = (url: string, fields: Record<string, string>) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });

  beforeAll(async () => {
    t = await startTestApp();
    links = t.app.get(PREFERENCE_LINKS);
    await t.knock().users.update('ada', { name: 'Ada', email: 'ada@example.com' });
    await t.knock().tenants.set('acme', { name: 'Acme' } as never);
    const config = {
      title: 'Ada prefs',
      body: 'Choose',
      rows: [
        { type: 'category', name: 'Marketing', description: 'News and offers', identifier: 'marketing', channel_types: ['email', 'sms'] },
        { type: 'channel_types', name: 'Channels', channel_types: ['email', 'push'] },
        { type: 'commercial_subscribed', name: 'Commercial' },
      ],
    };
    expect((await svc('PUT', '/v1/preference_center?environment=development', { config })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the configuration with the account and the user label', async () => {
    const config = await t.knock().users.preferenceCenter.getConfig('ada');
    expect(config).toMatchObject({
      enabled: true,
      config: { title: 'Ada prefs' },
      user_email: 'ada@example.com',
      account_name: expect.any(String),
    });
    expect((await t.http('GET', '/v1/users/nobody/preference_center/config')).status).toBe(404);
  });

  it('makes an absolute signed link; the page shows the rows and saves through the preference set', async () => {
    const { url, token } = await t.knock().users.preferenceCenter.generateSignedURL('ada');
    expect(url).toBe(`${t.url}/p/${token}`);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<legend>Marketing</legend>');
    expect(html).toMatch(
      /<label for="row-0-0"><input type="checkbox" id="row-0-0" name="categories:marketing:email" value="on" checked> Email<\/label>/,
    );

    // Everything ticked but marketing email and push.
    const saved = await form(url, { 'categories:marketing:sms': 'on', 'channel_types:email': 'on', commercial_subscribed: 'on' });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('role="status"');
    const set = await t.knock().users.getPreferences('ada', 'default');
    expect(set).toMatchObject({
      categories: { marketing: { channel_types: { email: false, sms: true } } },
      channel_types: { email: true, push: false },
      commercial_subscribed: true,
    });
    expect(await (await fetch(url)).text()).toContain('name="categories:marketing:email" value="on">');
  });

  it('takes the page only as a form: JSON or no body is refused with 415 in the error shape, writing nothing', async () => {
    const { url } = await t.knock().users.preferenceCenter.generateSignedURL('ada');
    const before = await t.knock().users.getPreferences('ada', 'default');
    const asJson = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(asJson.status).toBe(415);
    expect(await asJson.json()).toEqual({
      code: 'unsupported_media_type',
      message: expect.stringContaining('application/x-www-form-urlencoded'),
      status: 415,
      type: 'invalid_request_error',
    });
    expect((await fetch(url, { method: 'POST' })).status).toBe(415);
    expect(await t.knock().users.getPreferences('ada', 'default')).toEqual(before);
  });

  it('writes a tenant link into the user set of that tenant', async () => {
    const { url } = await t.knock().post<{ url: string }>('/v1/users/ada/preference_center/signed_url?tenant=acme');
    expect((await form(url, {})).status).toBe(200);
    const inTenant = await t.http('GET', '/v1/users/ada/preferences/acme');
    expect(inTenant.body).toMatchObject({
      commercial_subscribed: false,
      categories: { marketing: { channel_types: { email: false, sms: false } } },
    });
    expect((await t.http('POST', '/v1/users/ada/preference_center/signed_url?tenant=nope')).status).toBe(404);
  });

  it('refuses a tampered, expired or misused link with an error page and writes nothing', async () => {
    const { url, token } = await t.knock().users.preferenceCenter.generateSignedURL('ada');
    const [h, p, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${t.url}/p/${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'bob' })).toString('base64url')}.${sig}`;
    const expired = links.pageUrl(links.token('page', { environment: 'development', userId: 'ada', tenant: null }, new Date(0)), t.url);
    const unsubscribe = links.unsubscribeUrl(
      links.token('unsubscribe', { environment: 'development', userId: 'ada', tenant: null, categories: ['marketing'] }, new Date()),
      t.url,
    );
    const before = await eventCount();
    for (const [target, status] of [
      [forged, 403],
      [`${url}x`, 403],
      [expired, 410],
      [unsubscribe.replace(/\/unsubscribe$/, ''), 403],
      [`${url}/unsubscribe`, 403],
    ] as const) {
      // A browser (asking for HTML) gets an error page; any other client the API's error shape.
      const shown = await fetch(target, { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(shown.status).toBe(status);
      expect(shown.headers.get('content-type')).toContain('text/html');
      expect(await shown.text()).toContain('role="alert"');
      const posted = await form(target, { commercial_subscribed: 'on' });
      expect(posted.status).toBe(status);
      expect(await posted.json()).toEqual({
        code: status === 410 ? 'link_expired' : 'invalid_link',
        message: expect.any(String),
        status,
        type: status === 410 ? 'invalid_request_error' : 'authentication_error',
      });
    }
    expect(await eventCount()).toBe(before);
  });

  it('one-click unsubscribe: a GET asks, a POST turns off the email of the link categories', async () => {
    await t.knock().users.setPreferences('ada', 'default', { categories: { billing: { channel_types: { sms: false } } } } as never);
    const url = links.unsubscribeUrl(
      links.token('unsubscribe', { environment: 'development', userId: 'ada', tenant: null, categories: ['billing', 'news'] }, new Date()),
      t.url,
    );
    const before = await eventCount();
    const ask = await fetch(url);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await eventCount()).toBe(before);

    const done = await form(url, { 'List-Unsubscribe': 'One-Click' });
    expect(done.status).toBe(200);
    const set = await t.knock().users.getPreferences('ada', 'default');
    expect(set.categories).toEqual({
      billing: { channel_types: { sms: false, email: false } },
      news: { channel_types: { email: false } },
    });
    // A mail provider's multipart POST works the same.
    const body = '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n';
    const multipart = await fetch(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body });
    expect(multipart.status).toBe(200);
  });
});
