import type { ReceiptKind } from '@notify/contracts';

/** An inbound provider webhook as the receipt endpoint received it. */
export interface ReceiptRequest {
  /** The body's text exactly as received: what signatures are computed over. */
  rawBody: string;
  /** The body parsed (JSON, or form fields). */
  body: unknown;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The absolute URL the provider called (public address, path and query): Twilio signs it. */
  url: string;
  now: Date;
}

/** The channel's settings (provider settings, secrets opened, over channel settings). */
export type ReceiptSettings = Record<string, unknown>;

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/** One provider event about one message, in the service's terms. */
export interface ParsedReceipt {
  /** The provider's id for the event; a digest of the event when the provider gives none. */
  receiptId: string;
  /** The id the provider gave the message when it was sent (normalised, see normaliseProviderMessageId). */
  providerMessageId: string;
  kind: ReceiptKind;
  bounceType: 'hard' | 'soft' | null;
  reason: string | null;
  url: string | null;
  recipient: string | null;
  occurredAt: string;
  payload: Record<string, unknown>;
}

export interface ReceiptParse {
  receipts: ParsedReceipt[];
  /** Provider events read but of no kind the service tracks (processed, deferred, queued...). */
  ignored: number;
  /** Amazon SNS: a subscription to confirm by fetching this URL (after the signature was checked). */
  subscribeUrl?: string;
}

export interface ReceiptDeps {
  /** Fetches a signing certificate (PEM) for Amazon SNS; refuses hosts not allowed (see SnsCertificates). */
  certificate?: (url: string) => Promise<string>;
}

/**
 * A provider's receipt format: how its webhook is authenticated and what its events mean. One per
 * provider id; the receipt endpoint names it (`/v1/receipts/{env}/{channel}/{source}`).
 */
export interface ReceiptSource {
  id: string;
  /** Setting names this source reads from the channel's settings (for the README and error messages). */
  settings: readonly string[];
  verify(request: ReceiptRequest, settings: ReceiptSettings, deps: ReceiptDeps): Promise<VerifyResult> | VerifyResult;
  parse(request: ReceiptRequest): ReceiptParse;
}
