import { AddressPolicy, OutboundHttp, type OutboundHttpOptions } from '@notify/outbound';

/**
 * The allow-list tests use for their local peers. Outbound calls refuse loopback addresses by
 * default; tests that talk to peers on 127.0.0.1 say so explicitly with this.
 */
export const LOCAL_PEER_ADDRESSES = '127.0.0.0/8,::1';

/** An outbound HTTP client that may call local peers (close it after the test). */
export function localPeersOutbound(options: Omit<OutboundHttpOptions, 'policy'> = {}): OutboundHttp {
  return new OutboundHttp({ ...options, policy: AddressPolicy.allowing(LOCAL_PEER_ADDRESSES) });
}
