/**
 * What a fetch step may call and when it tries again. Pure: the step resolves host names and
 * passes the addresses in.
 */

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link_local'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'invalid';

function ipv4Octets(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const octets = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return octets.every((o) => Number.isInteger(o) && o >= 0 && o <= 255) ? octets : undefined;
}

function classifyIpv4([a, b, c]: number[]): AddressClass {
  if (a === 0) return 'unspecified'; // 0.0.0.0/8 ("this network"; 0.0.0.0 reaches the local host)
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'shared'; // carrier-grade NAT, 100.64.0.0/10
  if (a === 169 && b === 254) return 'link_local'; // includes cloud metadata at 169.254.169.254
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // IETF protocol assignments
  if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'documentation';
  if (a === 198 && (b === 18 || b === 19)) return 'benchmarking';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved'; // 240.0.0.0/4 and the broadcast address
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Groups(text: string): number[] | undefined {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // a.b.c.d at the end stands for the last two groups
    const v4 = ipv4Octets(last);
    if (!v4) return undefined;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  if ([...head, ...rest].some((g) => Number.isNaN(g))) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const present = head.length + rest.length;
  if (present > 7) return undefined;
  return [...head, ...Array<number>(8 - present).fill(0), ...rest];
}

function classifyIpv6(g: number[]): AddressClass {
  const v4 = (hi: number, lo: number) => classifyIpv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return 'unspecified';
  if (zeros(7) && g[7] === 1) return 'loopback';
  if (zeros(5) && g[5] === 0xffff) return v4(g[6], g[7]); // IPv4-mapped ::ffff:a.b.c.d
  if (zeros(6)) return v4(g[6], g[7]); // IPv4-compatible ::a.b.c.d (deprecated, still routable to v4 stacks)
  if (g[0] === 0x64 && g[1] === 0xff9b) return v4(g[6], g[7]); // NAT64 64:ff9b::/96 and /48
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4 embeds an IPv4 address
  if (g[0] === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return 'reserved'; // discard-only 100::/64
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return 'link_local'; // fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10 (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (g[0] === 0x2001 && g[1] === 0) return 'reserved'; // Teredo tunnels can reach private v4
  return 'public';
}

/** What kind of address an IP literal (IPv4 or IPv6, optionally in brackets) is. */
export function classifyAddress(ip: string): AddressClass {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const v4 = ipv4Octets(text);
  if (v4) return classifyIpv4(v4);
  const v6 = text.includes(':') ? ipv6Groups(text) : undefined;
  return v6 ? classifyIpv6(v6) : 'invalid';
}

export type FetchTargetDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * Whether a fetch may go to a host that resolved to `addresses`: every address must be public
 * (one private answer is enough to refuse, since the client may pick any of them), unless
 * private targets are allowed by configuration.
 */
export function fetchTargetAllowed(addresses: readonly string[], options: { allowPrivate: boolean }): FetchTargetDecision {
  if (addresses.length === 0) return { allowed: false, reason: 'host_not_resolved' };
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'invalid') return { allowed: false, reason: `invalid_address:${address}` };
    if (kind !== 'public' && !options.allowPrivate) return { allowed: false, reason: `address_not_allowed:${kind}:${address}` };
  }
  return { allowed: true };
}

/** Whether a URL may be fetched at all: http(s) only, no credentials in it. */
export function fetchUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid_url';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `unsupported_scheme:${parsed.protocol.replace(':', '')}`;
  if (parsed.username || parsed.password) return 'credentials_in_url';
  return undefined;
}

/** Network failures, timeouts, 429 and 5xx are worth another attempt; other answers are final. */
export function fetchRetryable(outcome: { status: number } | { networkError: true }): boolean {
  if ('networkError' in outcome) return true;
  return outcome.status === 429 || outcome.status === 408 || outcome.status >= 500;
}

/**
 * When attempt `attempt` (1-based; the one that just failed) is followed by the next: base,
 * doubling each time, capped; a Retry-After the server sent is honoured up to the cap. `jitter`
 * (0..1, from the caller) spreads retries of many runs failing together over +-20%.
 */
export function fetchRetryDelayMs(attempt: number, options: { baseMs: number; maxMs: number; retryAfterMs?: number | null; jitter?: number }): number {
  const exponential = options.baseMs * 2 ** Math.max(0, attempt - 1);
  const spread = options.jitter === undefined ? 1 : 0.8 + 0.4 * Math.min(1, Math.max(0, options.jitter));
  const delay = Math.max(exponential * spread, options.retryAfterMs ?? 0);
  return Math.round(Math.min(delay, options.maxMs));
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds from `now`. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
