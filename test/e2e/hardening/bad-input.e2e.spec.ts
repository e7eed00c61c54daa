import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { configureChannel } from '../../support/channels';
import { countEvents } from '../../support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../support/test-app';

const SHAPE = { code: expect.any(String), message: expect.any(String), status: expect.any(Number), type: expect.any(String) };

/**
 * Input the service cannot store or should not take is refused with a 4xx in the error shape,
 * before anything is written: strings Postgres cannot hold, bodies nested or sized past the
 * limits, malformed URLs, ids outside the one id rule, garbage where a value belongs.
 */
describe('bad input', () => {
  let t: TestApp;
  let env: TestEnvironment;
  let pushChannelId: string;

  beforeAll(async () => {
    t = await startTestApp();
    env = await t.newEnvironment();
    pushChannelId = (await configureChannel(t, { type: 'push', provider: 'push_fcm', environments: [env.slug] })).id;
    // Something to write over, so that a refused write would show as a change.
    expect((await t.http('PUT', '/v1/users/u1', { key: env.secretKey, body: { name: 'Existing' } })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const json = (body: string) => ({ rawBody: body, headers: { 'content-type': 'application/json' } });

  /** Sends the request and checks it was refused in the error shape with nothing appended to the log. */
  async function refused(method: string, path: string, options: Parameters<TestApp['http']>[2] = {}) {
    const before = await countEvents(t);
    const res = await t.http(method, path, { key: env.secretKey, ...options });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toEqual(expect.objectContaining(SHAPE));
    expect(res.body.status).toBe(res.status);
    expect(await countEvents(t)).toBe(before);
    return res;
  }

  /** A request whose path reaches the server byte for byte (fetch would resolve `..` and `%2E%2E`). */
  function raw(method: string, path: string): Promise<{ status: number; body: any }> {
    const url = new URL(t.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: { authorization: `Bearer ${env.secretKey}`, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
  }

  describe('strings Postgres cannot store', () => {
    const NUL = 'a\u0000b';
    const LONE = 'a\ud800b';
    const cases: [string, string, string, unknown, string][] = [
      ['identify', 'PUT', '/v1/users/u1', { name: NUL }, 'name'],
      ['identify (a key)', 'PUT', '/v1/users/u1', { [NUL]: 1 }, 'a\\u0000b'],
      ['set object', 'PUT', '/v1/objects/projects/o1', { name: LONE }, 'name'],
      ['set tenant', 'PUT', '/v1/tenants/t1', { name: NUL }, 'name'],
      ['set preferences', 'PUT', '/v1/users/u1/preferences/default', { workflows: { [LONE]: true } }, 'workflows.a\\ud800b'],
      ['trigger data', 'POST', '/v1/workflows/welcome/trigger', { recipients: ['u1'], data: { note: [1, NUL] } }, 'data.note.1'],
      ['inline recipient', 'POST', '/v1/workflows/welcome/trigger', { recipients: [{ id: 'u2', name: LONE }] }, 'recipients.0.name'],
      ['cancel', 'POST', '/v1/workflows/welcome/cancel', { cancellation_key: NUL }, 'cancellation_key'],
      ['subscribe', 'POST', '/v1/objects/projects/o1/subscriptions', { recipients: [{ id: 'u3', name: NUL }] }, 'recipients.0.name'],
      ['bulk identify', 'POST', '/v1/users/bulk/identify', { users: [{ id: 'u4', name: NUL }] }, 'users.0.name'],
      ['merge', 'POST', '/v1/users/u1/merge', { from_user_id: NUL }, 'from_user_id'],
      ['batch engagement', 'POST', '/v1/messages/batch/seen', { message_ids: [LONE] }, 'message_ids.0'],
    ];

    it.each(cases)('refuses them in %s with 422 naming the field', async (_, method, path, body, field) => {
      const res = await refused(method, path, json(JSON.stringify(body)));
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('invalid_params');
      expect(res.body.errors).toEqual([expect.objectContaining({ field, type: 'invalid_string' })]);
    });

    it('refuses them in channel data', async () => {
      const res = await refused('PUT', `/v1/users/u1/channel_data/${pushChannelId}`, json(JSON.stringify({ data: { tokens: [NUL] } })));
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'data.tokens.0' })]);
    });

    it('refuses them in path ids and query strings', async () => {
      expect((await refused('GET', '/v1/users/a%00b')).body.errors).toEqual([expect.objectContaining({ field: 'user_id' })]);
      expect((await refused('PUT', '/v1/users/a%00b', { body: {} })).status).toBe(422);
      expect((await refused('GET', '/v1/users?after=a%00b')).body.errors).toEqual([
        expect.objectContaining({ field: 'after', type: 'invalid_string' }),
      ]);
      expect((await refused('GET', '/v1/users/u1/messages?tenant=%00')).status).toBe(422);
      // A surrogate cannot even be percent-encoded as UTF-8: the path is not valid.
      expect((await refused('GET', '/v1/users/%ED%A0%80')).body).toMatchObject({ code: 'invalid_url', status: 400 });
    });

    it('leaves the existing user as it was', async () => {
      expect((await t.http('GET', '/v1/users/u1', { key: env.secretKey })).body.name).toBe('Existing');
    });
  });

  describe('nesting and size', () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

    it('refuses a body nested 10,000 levels deep with 422, before parsing it', async () => {
      const res = await refused('PUT', '/v1/users/u1', json(`{"name":"x","deep":${nested(10_000)}}`));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: '(root)', type: 'too_deep' })]);
    });

    it('refuses 5,000 levels inside a workflow field the same way', async () => {
      const body = `{"workflow":{"name":"Deep","steps":[{"type":"channel","ref":"s1","channel_key":"in-app","template":{"markdown_body":${nested(5000)}}}]}}`;
      const res = await refused('PUT', `/v1/workflows/deep?environment=${env.slug}`, { key: t.serviceToken, ...json(body) });
      expect(res.status).toBe(422);
    });

    it('accepts the deepest nesting allowed', async () => {
      const res = await t.http('PUT', '/v1/users/nested', {
        key: env.secretKey,
        ...json(`{"deep":${nested(t.config.BODY_MAX_DEPTH - 1)}}`),
      });
      expect(res.status).toBe(200);
    });

    it("refuses a body past its route's limit (16 KiB where it reads none, less where the contract says) or past BODY_LIMIT_BYTES with 413", async () => {
      expect((await refused('DELETE', '/v1/users/u1', { body: { padding: 'x'.repeat(20_000) } })).status).toBe(413);
      expect((await refused('POST', '/v1/users/u1/merge', { body: { from_user_id: 'u9', padding: 'x'.repeat(5000) } })).status).toBe(413);
      expect(
        (await refused('POST', '/v1/messages/batch/seen', { body: { message_ids: ['m1'], padding: 'x'.repeat(70_000) } })).status,
      ).toBe(413);
      expect((await refused('PUT', '/v1/users/u1', { body: { padding: 'x'.repeat(t.config.BODY_LIMIT_BYTES) } })).status).toBe(413);
      expect((await t.http('GET', '/v1/users/u1', { key: env.secretKey })).status).toBe(200);
    });
  });

  describe('framework errors in the error shape', () => {
    it('answers bad percent-encoding with 400 invalid_url', async () => {
      expect((await refused('GET', '/v1/users/%ZZ')).body).toMatchObject({
        code: 'invalid_url',
        status: 400,
        type: 'invalid_request_error',
      });
    });

    it('answers a 10,000-character id with 422 naming the parameter, and a 10,000-character query value likewise', async () => {
      expect((await refused('GET', `/v1/users/${'x'.repeat(10_000)}`)).body.errors).toEqual([
        expect.objectContaining({ field: 'user_id' }),
      ]);
      expect((await refused('GET', `/v1/users?after=${'x'.repeat(10_000)}`)).body.errors).toContainEqual(
        expect.objectContaining({ field: 'after' }),
      );
      expect((await refused('PUT', `/v1/objects/${'c'.repeat(10_000)}/o1`, { body: {} })).status).toBe(422);
    });

    it('answers what is not HTTP, and headers over the size limit, in the error shape', async () => {
      const exchange = (bytes: string) =>
        new Promise<string>((resolve, reject) => {
          const url = new URL(t.url);
          const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes));
          let text = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk) => (text += chunk));
          socket.on('close', () => resolve(text));
          socket.on('error', reject);
        });
      const answerOf = (text: string) => ({ status: Number(text.split(' ')[1]), body: JSON.parse(text.split('\r\n\r\n')[1]) });
      const before = await countEvents(t);
      const garbage = answerOf(await exchange('NOT HTTP AT ALL\r\n\r\n'));
      expect(garbage).toEqual({
        status: 400,
        body: { code: 'bad_request', message: expect.any(String), status: 400, type: 'invalid_request_error' },
      });
      const huge = answerOf(await exchange(`GET /v1/users/u1 HTTP/1.1\r\nHost: x\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`));
      expect(huge).toEqual({
        status: 431,
        body: { code: 'headers_too_large', message: expect.any(String), status: 431, type: 'invalid_request_error' },
      });
      expect(await countEvents(t)).toBe(before);
    });

    it('answers bad JSON, other content types and unrouted requests in the error shape', async () => {
      expect((await refused('PUT', '/v1/users/u1', json('{"name":'))).body.code).toBe('invalid_json');
      expect((await refused('PUT', '/v1/users/u1', { rawBody: '<user/>', headers: { 'content-type': 'application/xml' } })).body.code).toBe(
        'unsupported_media_type',
      );
      expect(
        (await refused('PUT', '/v1/users/u1', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
          .status,
      ).toBe(415);
      expect((await refused('GET', '/v1/no-such-thing')).body).toMatchObject({ code: 'route_not_found', status: 404 });
    });
  });

  describe('garbage that used to be accepted', () => {
    it.each([
      ['identify', 'PUT', '/v1/users/u1'],
      ['set object', 'PUT', '/v1/objects/projects/o1'],
      ['set tenant', 'PUT', '/v1/tenants/t1'],
      ['set preferences', 'PUT', '/v1/users/u1/preferences/default'],
    ])('refuses a JSON null body on %s with 422', async (_, method, path) => {
      const res = await refused(method, path, json('null'));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: '(root)' })]);
    });

    it('refuses the ids . and .. in paths, sent as they are', async () => {
      const before = await countEvents(t);
      for (const path of ['/v1/users/..', '/v1/users/%2E%2E', '/v1/users/.', '/v1/objects/../o1', '/v1/tenants/%2e%2e']) {
        const res = await raw('PUT', path);
        expect([path, res.status]).toEqual([path, 422]);
        expect(res.body).toEqual(expect.objectContaining({ ...SHAPE, code: 'invalid_params' }));
      }
      expect(await countEvents(t)).toBe(before);
    });

    it('refuses ids with right-to-left overrides, zero-width characters or whitespace, in paths and bodies', async () => {
      for (const id of ['a\u202eb', 'a\u200bb', 'a b', '\ufeffa']) {
        expect((await refused('PUT', `/v1/users/${encodeURIComponent(id)}`, { body: {} })).body.errors).toEqual([
          expect.objectContaining({ field: 'user_id' }),
        ]);
        expect((await refused('POST', '/v1/workflows/welcome/trigger', { body: { recipients: [id] } })).status).toBe(422);
        expect(
          (await refused('POST', '/v1/workflows/welcome/trigger', { body: { recipients: ['u1'], actor: { id, collection: 'c' } } })).status,
        ).toBe(422);
        expect((await refused('POST', '/v1/workflows/welcome/trigger', { body: { recipients: ['u1'], tenant: id } })).status).toBe(422);
        expect((await refused('POST', '/v1/objects/projects/o1/subscriptions', { body: { recipients: [id] } })).status).toBe(422);
        expect((await refused('POST', '/v1/users/u1/merge', { body: { from_user_id: id } })).status).toBe(422);
      }
    });

    it('refuses page_size given as an array or object, or as anything but a whole number', async () => {
      for (const q of ['page_size[]=1', 'page_size[a]=1', 'page_size=1e1', 'page_size=', 'page_size=0x10']) {
        expect((await refused('GET', `/v1/users?${q}`)).body.errors).toEqual([expect.objectContaining({ field: 'page_size' })]);
      }
    });

    it('refuses a malformed cursor on every list, the schedules listings included', async () => {
      for (const path of ['/v1/users/u1/schedules', '/v1/objects/projects/o1/schedules', '/v1/users', '/v1/tenants', '/v1/messages']) {
        expect((await refused('GET', `${path}?after=%%%garbage`)).body.errors).toEqual([expect.objectContaining({ field: 'after' })]);
        expect((await refused('GET', `${path}?before=bm90LWpzb24`)).body.errors).toEqual([expect.objectContaining({ field: 'before' })]);
      }
    });
  });
});
