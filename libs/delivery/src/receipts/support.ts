import { createHash, timingSafeEqual } from 'node:crypto';
import type { ReceiptSettings, VerifyResult } from './types';

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

export function setting(settings: ReceiptSettings, name: string): string | undefined {
  const v = settings[name];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

export const refuse = (reason: string): VerifyResult => ({ ok: false, reason });
export const OK: VerifyResult = { ok: true };

/** Constant-time comparison of two strings (false when their lengths differ). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Receipts older or newer than this are refused (replayed captures). */
export const TOLERANCE_SECONDS = 300;

export function withinTolerance(timestampSeconds: number, now: Date, tolerance = TOLERANCE_SECONDS): boolean {
  return Number.isFinite(timestampSeconds) && Math.abs(now.getTime() / 1000 - timestampSeconds) <= tolerance;
}

/** A stable id for an event the provider gives no id to: a digest of what identifies it. */
export function digestId(source: string, ...parts: unknown[]): string {
  return `${source}:${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)}`;
}

/**
 * Provider message ids as recorded at send and as receipts name them: without the angle brackets
 * of an RFC 5322 Message-ID, and lower-cased where the provider's ids are case-insensitive.
 */
export function normaliseProviderMessageId(id: string): string {
  return id.trim().replace(/^<(.*)>$/, '$1');
}

export function isoFrom(value: unknown, fallback: Date): string {
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value).toISOString();
  if (typeof value === 'string') {
    const asNumber = Number(value);
    if (/^\d+(\.\d+)?$/.test(value)) return new Date(asNumber < 1e12 ? asNumber * 1000 : asNumber).toISOString();
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  return fallback.toISOString();
}
