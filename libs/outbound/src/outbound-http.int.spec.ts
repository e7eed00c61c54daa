import { startHttpPeer, type Peer } from '@notify/testing/peers';
import { AddressPolicy } from './address-policy';
import { OutboundRefusedError } from './errors';
import { OutboundHttp } from './outbound-http';

/**
 * Real sockets on loopback addresses. 127.0.0.2 stands for "a public host" (it is the one
 * address the tests allow-list) and 127.0.0.1 for the internal service an attacker is after.
 */
const ALLOWED = '127.0.0.2';

async function peerPair(): Promise<{ outside: Peer; inside: Peer; port: number }> {
  // The two peers share a port, so a rebinding answer changes only the address.
  for (let attempt = 0; ; attempt++) {
    const outside = await startHttpPeer(() => ({ status: 200, text: 'outside' }), { host: ALLOWED });
    const port = Number(new URL(outside.url).port);
    try {
      const inside = await startHttpPeer(() => ({ status: 200, text: 'inside' }), { host: '127.0.0.1', port });
      return { outside, inside, port };
    } catch (error) {
      await outside.close();
      if (attempt > 5) throw error;
    }
  }
}

describe('OutboundHttp', () => {
  let outside: Peer;
  let inside: Peer;
  let port: number;
  const clients: OutboundHttp[] = [];
  const client = (resolve?: (host: string) => Promise<string[]>, allow = ALLOWED) => {
    const made = new OutboundHttp({ policy: AddressPolicy.allowing(allow), ...(resolve ? { resolve } : {}) });
    clients.push(made);
    return made;
  };

  beforeAll(async () => ({ outside, inside, port } = await peerPair()));
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    outside.requests.length = 0;
    inside.requests.length = 0;
    outside.respond = () => ({ status: 200, text: 'outside' });
  });
  afterAll(async () => Promise.all([outside.close(), inside.close()]));

  it('calls an allowed address and answers status, headers and body', async () => {
    const response = await client().request({
      method: 'POST',
      url: `http://${ALLOWED}:${port}/hook?x=1`,
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(response).toMatchObject({ status: 200, body: 'outside', truncated: false, url: `http://${ALLOWED}:${port}/hook?x=1` });
    expect(response.headers['content-type']).toContain('text/plain');
    expect(outside.requests).toEqual([expect.objectContaining({ method: 'POST', url: '/hook?x=1', body: 'hi' })]);
  });

  it.each([
    'http://127.0.0.1:PORT/',
    'http://2130706433:PORT/',
    'http://0x7f000001:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://127.1:PORT/',
    'http://0x7f.0.0.1:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::1]:PORT/',
    'http://0.0.0.0:PORT/',
    'http://localhost:PORT/',
  ])('refuses %s before connecting', async (template) => {
    const url = template.replace('PORT', String(port));
    const error = await client()
      .request({ method: 'GET', url })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect(error).toMatchObject({ reason: 'address_not_allowed', message: expect.stringContaining('OUTBOUND_ALLOWED_ADDRESSES') });
    expect(inside.requests).toEqual([]);
  });

  it('refuses a name when any address it resolves to is not allowed', async () => {
    const error = await client(async () => [ALLOWED, '127.0.0.1'])
      .request({ method: 'GET', url: `http://service.test:${port}/` })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: 'address_not_allowed',
      detail: { host: 'service.test', address: '127.0.0.1', addressClass: 'loopback' },
    });
    expect([...inside.requests, ...outside.requests]).toEqual([]);
  });

  it('resolves once and connects to the address it checked (DNS rebinding)', async () => {
    const answers = [[ALLOWED], ['127.0.0.1']];
    const asked: string[] = [];
    const rebinding = async (host: string) => {
      asked.push(host);
      return answers.shift() ?? ['127.0.0.1'];
    };
    const response = await client(rebinding).request({ method: 'GET', url: `http://rebind.test:${port}/data` });
    expect(response.body).toBe('outside');
    expect(asked).toEqual(['rebind.test']);
    expect(outside.requests.map((r) => [r.url, r.headers.host])).toEqual([['/data', `rebind.test:${port}`]]);
    expect(inside.requests).toEqual([]);
  });

  it('refuses the first answer when the resolver gives the private one first', async () => {
    const answers = [['127.0.0.1'], [ALLOWED]];
    const error = await client(async () => answers.shift()!)
      .request({ method: 'GET', url: `http://rebind.test:${port}/` })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'address_not_allowed' });
    expect([...inside.requests, ...outside.requests]).toEqual([]);
  });

  it('follows redirects only when asked, checking every hop', async () => {
    outside.respond = (r) =>
      r.url === '/start'
        ? { status: 302, headers: { location: `http://127.0.0.1:${port}/secret` }, text: '' }
        : { status: 200, text: 'outside' };
    const notFollowed = await client().request({ method: 'GET', url: `http://${ALLOWED}:${port}/start` });
    expect(notFollowed).toMatchObject({ status: 302, headers: expect.objectContaining({ location: `http://127.0.0.1:${port}/secret` }) });

    const error = await client()
      .request({ method: 'GET', url: `http://${ALLOWED}:${port}/start`, maxRedirects: 5 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'address_not_allowed', detail: { address: '127.0.0.1' } });
    expect(inside.requests).toEqual([]);
  });

  it('follows allowed redirects up to the limit, as GET after a 303, without credentials across origins', async () => {
    outside.respond = (r) => {
      if (r.url === '/a') return { status: 303, headers: { location: '/b' }, text: '' };
      if (r.url === '/b') return { status: 307, headers: { location: `http://[::ffff:${ALLOWED}]:${port}/c` }, text: '' };
      if (r.url.startsWith('/loop')) return { status: 302, headers: { location: `/loop${r.url.length}` }, text: '' };
      return { status: 200, text: 'done' };
    };
    const response = await client().request({
      method: 'POST',
      url: `http://${ALLOWED}:${port}/a`,
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{}',
      maxRedirects: 5,
    });
    expect(response).toMatchObject({ status: 200, body: 'done', url: `http://[::ffff:7f00:2]:${port}/c` });
    expect(outside.requests.map((r) => [r.method, r.url, r.body, r.headers.authorization ?? null])).toEqual([
      ['POST', '/a', '{}', 'Bearer t'],
      ['GET', '/b', '', 'Bearer t'],
      ['GET', '/c', '', null],
    ]);

    const tooMany = await client()
      .request({ method: 'GET', url: `http://${ALLOWED}:${port}/loop`, maxRedirects: 3 })
      .catch((e: unknown) => e);
    expect(tooMany).toMatchObject({ reason: 'too_many_redirects', message: 'more than 3 redirects' });
  });

  it('reads a body up to the limit and says it stopped there', async () => {
    outside.respond = () => ({ status: 200, text: 'x'.repeat(200_000) });
    const response = await client().request({ method: 'GET', url: `http://${ALLOWED}:${port}/big`, maxBodyBytes: 1000 });
    expect(response).toMatchObject({ status: 200, truncated: true });
    expect(response.body).toBe('x'.repeat(1000));
    const whole = await client().request({ method: 'GET', url: `http://${ALLOWED}:${port}/big`, maxBodyBytes: 200_000 });
    expect(whole).toMatchObject({ truncated: false });
    expect(whole.body).toHaveLength(200_000);
  });

  it('refuses other schemes and non-URLs', async () => {
    await expect(client().request({ method: 'GET', url: 'file:///etc/passwd' })).rejects.toMatchObject({ reason: 'unsupported_scheme' });
    await expect(client().request({ method: 'GET', url: 'not a url' })).rejects.toMatchObject({ reason: 'invalid_url' });
    expect(() => client().connectHttp2('http://[::1]:443')).toThrow(OutboundRefusedError);
  });
});
