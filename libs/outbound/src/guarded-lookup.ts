import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { AddressPolicy, parseAddress } from './address-policy';
import { OutboundRefusedError } from './errors';

/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Resolves a host once and checks every address it got: one refused address refuses the host,
 * since a client may pick any of them. An IP literal is checked as it is, without resolving.
 */
export async function resolveChecked(hostname: string, policy: AddressPolicy, resolve: Resolver): Promise<LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const addresses = parseAddress(bare) ? [bare] : await resolve(bare);
  if (!addresses.length) throw Object.assign(new Error(`${bare} did not resolve to any address`), { code: 'ENOTFOUND', hostname: bare });
  const checked: LookupAddress[] = [];
  for (const address of addresses) {
    const decision = policy.check(address);
    if (!decision.allowed) throw OutboundRefusedError.address(bare, address, decision.addressClass);
    checked.push({ address, family: parseAddress(address)!.kind() === 'ipv4' ? 4 : 6 });
  }
  return checked;
}

/**
 * A `lookup` for sockets (`net.connect`, `tls.connect`, `http2.connect`, undici's connector):
 * the socket connects to exactly the addresses that were checked, so a name cannot pass the
 * check with one answer and connect with another (DNS rebinding).
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver): LookupFunction {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolveChecked(hostname, policy, resolve).then(
      (addresses) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (!usable.length)
          return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
