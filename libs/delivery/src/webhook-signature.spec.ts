import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhookSignature } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test_signing_secret';
  const body = '{"event":"message.sent","id":"m1"}';
  const t = 1_767_225_600;

  it('is an HMAC-SHA256 of "<t>.<body>" in hex, with the timestamp', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signWebhook(secret, t, body)).toBe(`t=${t},v1=${expected}`);
  });

  it('verifies a fresh signature', () => {
    expect(verifyWebhookSignature(signWebhook(secret, t, body), body, secret, { nowSeconds: t + 10 })).toEqual({
      valid: true,
      timestamp: t,
    });
  });

  it('accepts the header when any v1 matches (secret rotation)', () => {
    const header = `${signWebhook('old-secret-value', t, body)},v1=${signWebhook(secret, t, body).split('v1=')[1]}`;
    expect(verifyWebhookSignature(header, body, secret, { nowSeconds: t }).valid).toBe(true);
  });

  it.each([
    ['a changed body', signWebhook(secret, t, body), `${body} `, secret, t, 'mismatch'],
    ['another secret', signWebhook('another-secret', t, body), body, secret, t, 'mismatch'],
    ['a changed timestamp', signWebhook(secret, t, body).replace(`t=${t}`, `t=${t + 1}`), body, secret, t, 'mismatch'],
    ['an old timestamp', signWebhook(secret, t, body), body, secret, t + 301, 'expired'],
    ['a timestamp from the future', signWebhook(secret, t, body), body, secret, t - 301, 'expired'],
    ['no header', undefined, body, secret, t, 'malformed'],
    ['no v1', `t=${t}`, body, secret, t, 'malformed'],
    ['no timestamp', 'v1=abcd', body, secret, t, 'malformed'],
  ])('refuses %s', (_case, header, rawBody, key, now, reason) => {
    expect(verifyWebhookSignature(header, rawBody, key, { nowSeconds: now })).toEqual({ valid: false, reason });
  });
});
