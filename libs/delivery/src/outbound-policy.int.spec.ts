import { generateKeyPairSync } from 'node:crypto';
import { OutboundHttp } from '@notify/outbound';
import { startHttp2Peer, startHttpPeer, type Peer } from '@notify/testing/peers';
import { localPeersOutbound } from '@notify/testing/outbound';
import { createDefaultRegistry } from './registry';
import type { DeliveryFailure, DeliveryRequest, DeliverySuccess, ProviderConfig } from './types';

/**
 * Every provider calls out through the outbound client and its address policy: with the
 * default (public addresses only), local peers, and so the internal services of the host they
 * stand for, are never reached, whatever URL or base URL the data names.
 */
const publicOnly = new OutboundHttp();
const allowed = localPeersOutbound();
afterAll(() => Promise.all([publicOnly.close(), allowed.close()]));

const base = {
  messageId: 'msg-o1',
  environment: 'production',
  attempt: 1,
  idempotencyKey: 'msg-o1',
  recipient: { id: 'ada', email: 'ada@example.org' },
};
const webhook = (url: string): DeliveryRequest => ({ ...base, content: { type: 'http', method: 'post', url, body: { hello: 'world' } } });
const webhookConfig: ProviderConfig = { provider: 'webhook', channelType: 'http', settings: {} };

describe('the outbound address policy in delivery', () => {
  let peer: Peer;
  let h2: Peer;
  let port: number;

  beforeAll(async () => {
    peer = await startHttpPeer(() => ({ status: 200, json: { internal: 'secret' } }));
    h2 = await startHttp2Peer(() => ({ status: 200, text: '' }));
    port = Number(new URL(peer.url).port);
  });
  afterAll(() => Promise.all([peer.close(), h2.close()]));
  beforeEach(() => {
    peer.requests.length = 0;
    h2.requests.length = 0;
    peer.respond = () => ({ status: 200, json: { internal: 'secret' } });
  });

  it.each([
    '127.0.0.1',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '127.1',
    '0x7f.1',
    '[::ffff:127.0.0.1]',
    '[::1]',
    '0.0.0.0',
    'localhost',
  ])('refuses a webhook to %s, permanently, with the reason in the log', async (host) => {
    const registry = createDefaultRegistry({ outbound: publicOnly });
    const result = (await registry.send(webhook(`http://${host}:${port}/internal`), webhookConfig)) as DeliveryFailure;
    expect(result).toMatchObject({
      outcome: 'failed',
      retryable: false,
      code: 'address_not_allowed',
      reason: expect.stringContaining('OUTBOUND_ALLOWED_ADDRESSES'),
    });
    expect(result.logs).toEqual([
      expect.objectContaining({ error: expect.stringMatching(/^address_not_allowed: .* is a (loopback|unspecified) address/) }),
    ]);
    expect(JSON.stringify(result.logs)).not.toContain('secret');
    expect(peer.requests).toEqual([]);
  });

  it('delivers the same webhook when the allow-list names the address', async () => {
    const registry = createDefaultRegistry({ outbound: allowed });
    expect(await registry.send(webhook(`${peer.url}/internal`), webhookConfig)).toMatchObject({ outcome: 'delivered' });
    expect(peer.requests).toHaveLength(1);
  });

  it('refuses chat webhooks and provider base URLs that point inside', async () => {
    const registry = createDefaultRegistry({ outbound: publicOnly });
    const chat = (await registry.send(
      {
        ...base,
        channelData: { connections: [{ incoming_webhook: { url: `${peer.url}/services/T/B/x` } }] },
        content: { type: 'chat', markdown_body: 'hi' },
      },
      { provider: 'slack-webhook', channelType: 'chat', settings: {} },
    )) as DeliveryFailure;
    expect(chat).toMatchObject({ outcome: 'failed', retryable: false, code: 'address_not_allowed' });

    const email = await registry.send(
      { ...base, content: { type: 'email', subject: 's', text_body: 't' } },
      { provider: 'resend', channelType: 'email', baseUrl: peer.url, settings: { api_key: 're_x', from: 'a@example.com' } },
    );
    expect(email).toMatchObject({ outcome: 'failed', retryable: false, code: 'address_not_allowed' });

    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const push = await registry.send(
      { ...base, channelData: { tokens: ['aaaa1111'] }, content: { type: 'push', title: 't', body: 'b' } },
      {
        provider: 'apns',
        channelType: 'push',
        baseUrl: h2.url,
        settings: {
          key_id: 'K',
          team_id: 'T',
          private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          bundle_id: 'b',
        },
      },
    );
    expect(push).toMatchObject({ outcome: 'failed', retryable: false, code: 'address_not_allowed' });
    expect(peer.requests).toEqual([]);
    expect(h2.requests).toEqual([]);
  });

  it('does not follow a redirect (an allowed receiver cannot bounce the call inside)', async () => {
    peer.respond = (r) =>
      r.url === '/moved' ? { status: 307, headers: { location: 'http://127.0.0.1:5432/' }, text: '' } : { status: 200, text: 'ok' };
    const result = await createDefaultRegistry({ outbound: allowed }).send(webhook(`${peer.url}/moved`), webhookConfig);
    expect(result).toMatchObject({ outcome: 'failed', retryable: false, code: 'http_307' });
    expect(peer.requests.map((r) => r.url)).toEqual(['/moved']);
  });

  it('keeps at most maxLoggedBodyBytes of a response body in the log', async () => {
    peer.respond = () => ({ status: 500, text: `${'é'.repeat(100_000)}TAIL` });
    const result = (await createDefaultRegistry({ outbound: allowed, maxLoggedBodyBytes: 1000 }).send(
      webhook(`${peer.url}/big`),
      webhookConfig,
    )) as DeliveryFailure;
    expect(result).toMatchObject({ outcome: 'failed', code: 'http_500' });
    const body = result.logs[0].response!.body as string;
    expect(body.startsWith('é'.repeat(500))).toBe(true);
    expect(body).toBe(`${'é'.repeat(500)}… (200004 bytes, cut to 1000)`);
    expect(body).not.toContain('TAIL');
  });

  it('keeps a JSON answer as JSON when it fits, and as cut text when it does not', async () => {
    peer.respond = () => ({ status: 200, json: { ok: true } });
    const small = (await createDefaultRegistry({ outbound: allowed, maxLoggedBodyBytes: 1000 }).send(
      webhook(`${peer.url}/json`),
      webhookConfig,
    )) as DeliverySuccess;
    expect(small.logs[0].response!.body).toEqual({ ok: true });
    peer.respond = () => ({ status: 200, json: { rows: Array.from({ length: 500 }, (_, i) => ({ i })) } });
    const big = (await createDefaultRegistry({ outbound: allowed, maxLoggedBodyBytes: 100 }).send(
      webhook(`${peer.url}/json`),
      webhookConfig,
    )) as DeliverySuccess;
    expect(big.logs[0].response!.body).toMatch(/^\{"rows":\[\{"i":0\}.*… \(\d+ bytes, cut to 100\)$/);
    expect(big.logs[0].request.body).toBe('{"hello":"world"}'); // under the limit: kept as sent
    const bigRequest = {
      ...webhook(`${peer.url}/json`),
      content: { type: 'http' as const, method: 'post' as const, url: `${peer.url}/json`, body: 'b'.repeat(5000) },
    };
    const cutRequest = (await createDefaultRegistry({ outbound: allowed, maxLoggedBodyBytes: 100 }).send(
      bigRequest,
      webhookConfig,
    )) as DeliverySuccess;
    expect(cutRequest.logs[0].request.body).toBe(`${'b'.repeat(100)}… (5000 bytes, cut to 100)`);
  });
});
