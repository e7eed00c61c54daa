export { AddressPolicy, allowListProblems, classifyAddress, parseAddress } from './address-policy';
export type { AddressClass, AddressDecision } from './address-policy';
export { OutboundRefusedError, refusalOf } from './errors';
export type { RefusalReason } from './errors';
export { guardedLookup, resolveChecked, systemResolver } from './guarded-lookup';
export type { Resolver } from './guarded-lookup';
export { DEFAULT_MAX_BODY_BYTES, OutboundHttp } from './outbound-http';
export type { OutboundHttpOptions, OutboundRequest, OutboundResponse } from './outbound-http';
