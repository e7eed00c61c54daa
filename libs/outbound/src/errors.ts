import type { AddressClass } from './address-policy';

export type RefusalReason = 'address_not_allowed' | 'unsupported_scheme' | 'invalid_url' | 'too_many_redirects';

/** An outbound call this service will not make. Never worth a retry: the same target is refused again. */
export class OutboundRefusedError extends Error {
  readonly code = 'ERR_OUTBOUND_REFUSED';

  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly detail: { host?: string; address?: string; addressClass?: AddressClass } = {},
  ) {
    super(message);
    this.name = 'OutboundRefusedError';
  }

  static address(host: string, address: string, addressClass: AddressClass): OutboundRefusedError {
    const what = host === address ? address : `${host} (${address})`;
    return new OutboundRefusedError(
      'address_not_allowed',
      `${what} is a ${addressClass.replace('_', '-')} address; calls to non-public addresses are refused unless OUTBOUND_ALLOWED_ADDRESSES lists them`,
      { host, address, addressClass },
    );
  }
}

/** The refusal behind an error, looking through the causes network libraries wrap errors in. */
export function refusalOf(error: unknown): OutboundRefusedError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return undefined;
}
