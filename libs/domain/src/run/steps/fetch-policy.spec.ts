import { classifyAddress, fetchRetryable, fetchRetryDelayMs, fetchTargetAllowed, fetchUrlProblem, parseRetryAfter } from './fetch-policy';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.128.0.1', 'public'],
    ['169.254.169.254', 'link_local'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
  ])('IPv4 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each([
    ['2606:4700:4700::1111', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'link_local'],
    ['2002:c0a8:0101::1', 'private'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('IPv6 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each(['localhost', '1.2.3', '256.1.1.1', '1:2:3:4:5:6:7:8:9', ':::1', '12345::1', '', '01.2.3.4.5'])('refuses to classify %j', (text) => {
    expect(classifyAddress(text)).toBe('invalid');
  });
});

describe('fetchTargetAllowed', () => {
  it('allows a host whose every address is public', () => {
    expect(fetchTargetAllowed(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'], { allowPrivate: false })).toEqual({ allowed: true });
  });

  it('refuses when any address is private, naming it', () => {
    expect(fetchTargetAllowed(['93.184.216.34', '127.0.0.1'], { allowPrivate: false })).toEqual({ allowed: false, reason: 'address_not_allowed:loopback:127.0.0.1' });
    expect(fetchTargetAllowed(['::1'], { allowPrivate: false })).toEqual({ allowed: false, reason: 'address_not_allowed:loopback:::1' });
    expect(fetchTargetAllowed(['169.254.169.254'], { allowPrivate: false })).toMatchObject({ allowed: false, reason: expect.stringContaining('link_local') });
  });

  it('allows private addresses when configured, but never an unresolved host', () => {
    expect(fetchTargetAllowed(['127.0.0.1', '::1'], { allowPrivate: true })).toEqual({ allowed: true });
    expect(fetchTargetAllowed([], { allowPrivate: true })).toEqual({ allowed: false, reason: 'host_not_resolved' });
  });
});

describe('fetchUrlProblem', () => {
  it('accepts http and https URLs only, without credentials', () => {
    expect(fetchUrlProblem('https://api.example.com/x?y=1')).toBeUndefined();
    expect(fetchUrlProblem('http://127.0.0.1:8080/')).toBeUndefined();
    expect(fetchUrlProblem('file:///etc/passwd')).toBe('unsupported_scheme:file');
    expect(fetchUrlProblem('ftp://example.com')).toBe('unsupported_scheme:ftp');
    expect(fetchUrlProblem('https://user:pw@example.com')).toBe('credentials_in_url');
    expect(fetchUrlProblem('not a url')).toBe('invalid_url');
  });
});

describe('fetch retries', () => {
  it('retries network failures, timeouts, 429 and 5xx only', () => {
    expect(fetchRetryable({ networkError: true })).toBe(true);
    expect([429, 408, 500, 502, 503].every((status) => fetchRetryable({ status }))).toBe(true);
    expect([400, 401, 403, 404, 422].some((status) => fetchRetryable({ status }))).toBe(false);
  });

  it('doubles the delay per attempt up to the cap, honouring Retry-After', () => {
    const opts = { baseMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4].map((a) => fetchRetryDelayMs(a, opts))).toEqual([1000, 2000, 4000, 8000]);
    expect(fetchRetryDelayMs(10, opts)).toBe(60_000);
    expect(fetchRetryDelayMs(1, { ...opts, retryAfterMs: 30_000 })).toBe(30_000);
    expect(fetchRetryDelayMs(1, { ...opts, retryAfterMs: 3_600_000 })).toBe(60_000);
    expect(fetchRetryDelayMs(2, { ...opts, jitter: 0 })).toBe(1600);
    expect(fetchRetryDelayMs(2, { ...opts, jitter: 1 })).toBe(2400);
  });

  it('reads Retry-After as seconds or a date', () => {
    const now = new Date('2026-03-02T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
