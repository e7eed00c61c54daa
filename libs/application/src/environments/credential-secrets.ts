import { createHash, randomBytes } from 'node:crypto';

export const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALPHABET = SECRET_ALPHABET;

/** High-entropy credentials are stored as a plain sha256: no salt or slow hash is needed. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateSecret(prefix: 'sk' | 'pk' | '', length = 40): string {
  const bytes = randomBytes(length);
  let body = '';
  for (const b of bytes) body += ALPHABET[b % ALPHABET.length];
  return prefix ? `${prefix}_${body}` : body;
}

export function hintOf(secret: string): string {
  return secret.slice(-4);
}
