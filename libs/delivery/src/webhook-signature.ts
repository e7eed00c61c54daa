import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-notify-signature';
/** Receivers should refuse signatures older than this (replay protection). */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The value of the `x-notify-signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>" keyed with the signing secret>`. See ADR 0063 and the README for receivers.
 */
export function signWebhook(secret: string, timestampSeconds: number, rawBody: string): string {
  return `t=${timestampSeconds},v1=${hmac(secret, timestampSeconds, rawBody)}`;
}

export type SignatureCheck = { valid: true; timestamp: number } | { valid: false; reason: 'malformed' | 'expired' | 'mismatch' };

/**
 * What a receiver does with the header and the raw request body (before any JSON parsing):
 * read `t` and every `v1`, refuse a timestamp outside the tolerance, compare in constant time.
 */
export function verifyWebhookSignature(
  header: string | undefined,
  rawBody: string,
  secret: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): SignatureCheck {
  if (!header) return { valid: false, reason: 'malformed' };
  const parts = header.split(',').map((part) => part.trim().split('=') as [string, string?]);
  const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!);
  if (!Number.isInteger(timestamp) || !signatures.length) return { valid: false, reason: 'malformed' };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS))
    return { valid: false, reason: 'expired' };
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  const match = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? { valid: true, timestamp } : { valid: false, reason: 'mismatch' };
}

function hmac(secret: string, timestampSeconds: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
}
