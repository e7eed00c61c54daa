import ipaddr from 'ipaddr.js';

/**
 * Which addresses outbound HTTP may reach. Public unicast addresses always; everything else
 * (loopback, private, link-local, unique-local, unspecified, multicast, shared, reserved, and
 * the same hidden inside IPv6 forms that carry an IPv4 address) only when the allow-list names
 * it. Addresses are parsed by ipaddr.js, which reads every form the system resolver does
 * (`2130706433`, `0177.1`, `0x7f.0.0.1`, `127.1`, `[::ffff:7f00:1]`, ...).
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link_local'
  | 'unique_local'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'invalid';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const V4_CLASSES: Record<string, AddressClass> = {
  unicast: 'public',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link_local', // cloud metadata services live at 169.254.169.254
  loopback: 'loopback',
  carrierGradeNat: 'shared',
  private: 'private',
};

const V6_CLASSES: Record<string, AddressClass> = {
  unspecified: 'unspecified',
  linkLocal: 'link_local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique_local',
  deprecatedSiteLocal: 'private',
};

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** An IP literal in any form the resolver accepts (brackets and zone ids allowed); undefined for a name. */
export function parseAddress(text: string): Address | undefined {
  const bracketed = text.startsWith('[') && text.endsWith(']');
  const bare = bracketed ? text.slice(1, -1) : text;
  if (!bare || (bracketed && !bare.includes(':')) || !ipaddr.isValid(bare)) return undefined;
  try {
    return ipaddr.parse(bare);
  } catch {
    return undefined;
  }
}

/** The IPv4 address an IPv6 one stands for (mapped, translated, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const last32 = () => new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
      return last32();
    case '6to4': // 2002:AABB:CCDD::/48
      return new ipaddr.IPv4([p[1] >> 8, p[1] & 0xff, p[2] >> 8, p[2] & 0xff]);
  }
  // IPv4-compatible ::a.b.c.d (deprecated; some stacks still route it to the IPv4 address)
  if (p.slice(0, 6).every((g) => g === 0) && (p[6] !== 0 || p[7] > 1)) return last32();
  return undefined;
}

function classify(address: Address): AddressClass {
  if (address.kind() === 'ipv4') return V4_CLASSES[address.range()] ?? 'reserved';
  const v6 = address as ipaddr.IPv6;
  const v4 = embeddedIpv4(v6);
  if (v4) return classify(v4);
  const known = V6_CLASSES[v6.range()];
  if (known) return known;
  // Only the global unicast block is public; Teredo, documentation, ORCHID, discard-only and
  // unallocated space are not.
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6) ? 'public' : 'reserved';
}

/** What kind of address an IP literal is; `invalid` when the text is not one. */
export function classifyAddress(text: string): AddressClass {
  const address = parseAddress(text);
  return address ? classify(address) : 'invalid';
}

export type AddressDecision = { allowed: true } | { allowed: false; addressClass: AddressClass };

/** Public addresses, plus the non-public ones an allow-list of addresses and CIDR ranges names. */
export class AddressPolicy {
  private constructor(
    private readonly ranges: readonly [Address, number][],
    readonly entries: readonly string[],
  ) {}

  /** Nothing but public addresses. */
  static publicOnly(): AddressPolicy {
    return new AddressPolicy([], []);
  }

  /**
   * From a list such as `127.0.0.1, 10.0.0.0/8, ::1` (commas or white space between entries).
   * Throws a TypeError naming every entry that is neither an address nor a CIDR range.
   */
  static allowing(list: string | readonly string[]): AddressPolicy {
    const entries = (typeof list === 'string' ? list.split(/[\s,]+/) : [...list]).map((e) => e.trim()).filter(Boolean);
    const problems = allowListProblems(entries);
    if (problems.length) throw new TypeError(problems.join('; '));
    return new AddressPolicy(entries.map(toRange), entries);
  }

  check(text: string): AddressDecision {
    const address = parseAddress(text);
    if (!address) return { allowed: false, addressClass: 'invalid' };
    const addressClass = classify(address);
    if (addressClass === 'public' || this.listed(address)) return { allowed: true };
    return { allowed: false, addressClass };
  }

  private listed(address: Address): boolean {
    const forms: Address[] = [address];
    if (address.kind() === 'ipv6') {
      const v4 = embeddedIpv4(address as ipaddr.IPv6);
      if (v4) forms.push(v4);
    }
    return forms.some((form) => this.ranges.some(([base, bits]) => base.kind() === form.kind() && form.match(base, bits)));
  }
}

/** Entries of an allow-list that are neither an IP address nor a CIDR range. */
export function allowListProblems(entries: readonly string[]): string[] {
  return entries
    .filter((entry) => !toRangeOrUndefined(entry))
    .map((entry) => `${JSON.stringify(entry)} is neither an IP address nor a CIDR range`);
}

function toRangeOrUndefined(entry: string): [Address, number] | undefined {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry) as [Address, number];
    // Plain addresses must be written out (no 127.1 shorthands in configuration).
    if (!ipaddr.IPv4.isValidFourPartDecimal(entry) && !(entry.includes(':') && ipaddr.IPv6.isValid(entry))) return undefined;
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

function toRange(entry: string): [Address, number] {
  return toRangeOrUndefined(entry)!;
}
