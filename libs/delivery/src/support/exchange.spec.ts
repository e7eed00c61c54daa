import { Exchange } from './exchange';
import { Redactor, REDACTED } from './redactor';

const exchange = (settings: Record<string, unknown> = {}, timeoutMs?: number) =>
  new Exchange(Redactor.forSettings(settings), { settings, timeoutMs });

describe('Exchange', () => {
  it('takes the timeout from the config, else the timeout_ms setting, else 10 s', () => {
    expect(exchange({ timeout_ms: 2500 }, 700).timeoutMs).toBe(700);
    expect(exchange({ timeout_ms: 2500 }).timeoutMs).toBe(2500);
    expect(exchange({ timeout_ms: 'soon' }).timeoutMs).toBe(10_000);
    expect(exchange().timeoutMs).toBe(10_000);
  });

  it('redacts a secret learnt after the entry that holds it was recorded', () => {
    const x = exchange();
    x.record({
      request: { method: 'POST', url: 'https://api.example.com/x', headers: {}, body: { note: 'late-secret-value' } },
      error: 'echo late-secret-value',
      duration_ms: 1,
    });
    x.redactor.add('late-secret-value');
    const result = x.failed({ retryable: true, reason: 'failed with late-secret-value', code: 'x' });
    expect(JSON.stringify(result)).not.toContain('late-secret-value');
    expect(result).toMatchObject({
      reason: `failed with ${REDACTED}`,
      logs: [{ request: { body: { note: REDACTED } }, error: `echo ${REDACTED}` }],
    });
  });

  describe('fannedOut', () => {
    it('is sent when any target got the message, listing the others', () => {
      const result = exchange().fannedOut(
        [
          { target: 'token:a', outcome: 'failed', retryable: false, code: 'gone', reason: 'gone' },
          { target: 'token:b', outcome: 'sent', providerMessageId: 'm-b' },
        ],
        ['a'],
      );
      expect(result).toEqual({ outcome: 'sent', providerMessageId: 'm-b', targets: expect.any(Array), invalidTokens: ['a'], logs: [] });
    });

    it('leaves providerMessageId out when several targets got it', () => {
      const result = exchange().fannedOut([
        { target: 'a', outcome: 'sent', providerMessageId: '1' },
        { target: 'b', outcome: 'sent', providerMessageId: '2' },
      ]);
      expect(result).not.toHaveProperty('providerMessageId');
    });

    it('is failed when all failed, retryable (with the first retryable cause) if any was', () => {
      const result = exchange().fannedOut(
        [
          { target: 'a', outcome: 'failed', retryable: false, code: 'bad', reason: 'bad token' },
          { target: 'b', outcome: 'failed', retryable: true, code: 'http_503', reason: 'HTTP 503' },
        ],
        [],
        4000,
      );
      expect(result).toMatchObject({
        outcome: 'failed',
        retryable: true,
        code: 'http_503',
        reason: 'all 2 targets failed; first: HTTP 503',
        retryAfterMs: 4000,
      });
    });

    it('is permanent when every failure was, and then carries no Retry-After', () => {
      const result = exchange().fannedOut(
        [{ target: 'a', outcome: 'failed', retryable: false, code: 'bad', reason: 'bad token' }],
        [],
        4000,
      );
      expect(result).toEqual({
        outcome: 'failed',
        retryable: false,
        code: 'bad',
        reason: 'bad token',
        targets: expect.any(Array),
        logs: [],
      });
    });

    it('bounces when every token was reported gone (APNs Unregistered / BadDeviceToken, FCM UNREGISTERED), not when one was', () => {
      const gone = (t: string) => ({
        target: `token:${t}`,
        outcome: 'failed' as const,
        retryable: false,
        code: 'apns_baddevicetoken',
        reason: 'HTTP 400: BadDeviceToken',
      });
      expect(exchange().fannedOut([gone('a'), gone('b')], ['a', 'b'])).toMatchObject({
        outcome: 'failed',
        bounced: true,
        reason: 'all 2 targets failed; first: HTTP 400: BadDeviceToken',
        invalidTokens: ['a', 'b'],
      });
      const other = { target: 'token:c', outcome: 'failed' as const, retryable: false, code: 'apns_payloadtoolarge', reason: 'HTTP 413' };
      expect(exchange().fannedOut([gone('a'), other], ['a'])).not.toHaveProperty('bounced');
    });

    it('redacts secrets in target reasons', () => {
      const result = exchange({ api_key: 'key-123456789' }).fannedOut([
        { target: 'a', outcome: 'failed', retryable: false, reason: 'rejected key-123456789' },
      ]);
      expect(JSON.stringify(result)).not.toContain('key-123456789');
    });
  });
});
