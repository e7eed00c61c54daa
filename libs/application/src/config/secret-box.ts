import { isSealed, REDACTED, SealedSecretT, SecretValueT } from '@notify/contracts';
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Seals secret values (AES-256-GCM, a random nonce each) before they go into an event, so the
 * log, its Kafka copy and any export never hold them in clear. Only delivery opens them.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  static fromSetting(value: string): SecretBox {
    return new SecretBox(/^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64'));
  }

  /** A key for another purpose (link signatures), derived so the sealing key itself never leaves. */
  subkey(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(purpose).digest();
  }

  seal(plain: string): SealedSecretT {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return {
      $sealed: `v1.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64')}`,
      hint: plain.length > 8 ? plain.slice(-4) : '',
    };
  }

  open(sealed: SealedSecretT): string {
    const raw = Buffer.from(sealed.$sealed.replace(/^v1\./, ''), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

export const SECRET_BOX = Symbol('SECRET_BOX');

/**
 * Provider setting names that hold credentials. Liquid references (`{{ vars.x }}`) are not
 * secrets themselves. `pass` is SMTP's `auth.pass`; `service_account` is FCM's key file, which a
 * client may send as one JSON string.
 */
const SECRET_NAME = /(key|secret|token|password|passwd|credential|private|auth|signature|certificate|service_account|^pass$)/i;
export const isSecretSetting = (name: string, value: unknown) =>
  SECRET_NAME.test(name) && typeof value === 'string' && !/\{\{.*\}\}/s.test(value);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isSealed(v);

/**
 * Seals the secret values of `settings`, in nested objects too (SMTP `auth: {user, pass}`, an
 * FCM service account given as an object). A value sent back as the redaction marker keeps the
 * secret stored before, so a client can write back what it read.
 */
export function sealSettings(
  box: SecretBox,
  settings: Record<string, unknown>,
  previous: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value === REDACTED && previous[name] !== undefined) out[name] = previous[name];
    else if (isPlainObject(value)) out[name] = sealSettings(box, value, isPlainObject(previous[name]) ? previous[name] : {});
    else out[name] = isSecretSetting(name, value) ? box.seal(value as string) : value;
  }
  return out;
}

/** What reads show: sealed values (at any depth) as the marker, everything else as it is. */
export function redactSettings(settings: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [k, isSealed(v) ? REDACTED : isPlainObject(v) ? redactSettings(v) : v]),
  );
}

export const redactValue = (value: SecretValueT | null): string | null => (value === null ? null : isSealed(value) ? REDACTED : value);

/** A stored value in clear: sealed secrets (at any depth) opened, anything else as it is. Only delivery calls this. */
export const unsealValue = (box: SecretBox, value: unknown): unknown =>
  isSealed(value)
    ? box.open(value as SealedSecretT)
    : isPlainObject(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unsealValue(box, v)]))
      : value;
