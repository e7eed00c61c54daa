import { stableUuid } from './apns.provider';
import { domainOf, formatAddress, stableMessageId } from './email-address';
import { pushTokens } from './push-tokens';

describe('identifiers stable across attempts', () => {
  it('derives one UUID per input, in UUID layout, different for different inputs', () => {
    const id = stableUuid('msg-1|token-a');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableUuid('msg-1|token-a')).toBe(id);
    expect(stableUuid('msg-1|token-b')).not.toBe(id);
  });

  it('uses a dot-atom idempotency key as the Message-ID and hashes anything else', () => {
    expect(stableMessageId('msg_123.attempt', 'example.com')).toBe('<msg_123.attempt@example.com>');
    expect(stableMessageId('a key with spaces', 'example.com')).toMatch(/^<[0-9a-f]{64}@example\.com>$/);
    expect(stableMessageId('a key with spaces', 'example.com')).toBe(stableMessageId('a key with spaces', 'example.com'));
  });

  it('reads the sender domain and quotes display names', () => {
    expect(domainOf('Notify <no-reply@mail.example.com>')).toBe('mail.example.com');
    expect(domainOf('bare@example.org')).toBe('example.org');
    expect(formatAddress('ada@example.com', 'Ada "Countess" Lovelace')).toBe('"Ada \\"Countess\\" Lovelace" <ada@example.com>');
  });

  it('takes push tokens from tokens and devices without repeats', () => {
    expect(pushTokens({ tokens: ['a', 'b', ' '], devices: [{ token: 'b' }, { token: 'c' }, { locale: 'en' }] })).toEqual(['a', 'b', 'c']);
    expect(pushTokens(null)).toEqual([]);
  });
});
