import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { PersonalData } from '@notify/contracts';

/**
 * Crypto-shredding of personal event fields (ADR 0180). A field declared personal in its event's
 * contract is replaced by a sealed value encrypted with the subject's key (AES-256-GCM); opening it
 * with the key gives the value back, opening it once the key is destroyed gives {@link ERASED}.
 */

/** What a personal field reads as once its subject's key is destroyed. */
export const ERASED = Object.freeze({ $erased: true as const });

export interface SealedField {
  $sealed: 'aes-256-gcm/v1';
  subject: string;
  /** base64: 12-byte IV, 16-byte tag, ciphertext of the field's JSON. */
  iv: string;
  tag: string;
  ct: string;
}

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;

export function generateKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function isSealedField(value: unknown): value is SealedField {
  return typeof value === 'object' && value !== null && (value as { $sealed?: unknown }).$sealed === 'aes-256-gcm/v1';
}

export function isErased(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { $erased?: unknown }).$erased === true;
}

const IV_BYTES = 12;
/** Random bytes drawn once for many IVs: a call to the CSPRNG per sealed value was most of its cost (ADR 0184). */
let ivPool = Buffer.alloc(0);
let ivOffset = 0;

/** A fresh random 96-bit IV; each is used once, never handed out twice. */
function nextIv(): Buffer {
  if (ivOffset + IV_BYTES > ivPool.length) {
    ivPool = randomBytes(IV_BYTES * 1024);
    ivOffset = 0;
  }
  const iv = ivPool.subarray(ivOffset, ivOffset + IV_BYTES);
  ivOffset += IV_BYTES;
  return iv;
}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; tag: Buffer; ct: Buffer } {
  if (key.length !== KEY_BYTES) throw new Error(`An erasure key is ${KEY_BYTES} bytes, got ${key.length}`);
  const iv = nextIv();
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(aad);
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ct };
}

function decrypt(key: Buffer, sealed: { iv: Buffer; tag: Buffer; ct: Buffer }, aad: Buffer): Buffer {
  const decipher = createDecipheriv(ALGORITHM, key, sealed.iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ct), decipher.final()]);
}

/**
 * The values a process sealed lately, by their IV (random and used once, so it names one sealing):
 * opening one of them again, as the process's own readers do soon after its appends (the run
 * executor's runs, read back by the projections), parses the JSON it sealed instead of decrypting
 * (ADR 0253). A value is given back only for the very key, subject and ciphertext it was sealed
 * with: a destroyed key (null) still reads as {@link ERASED}, a new one does not match. Bounded:
 * the oldest are dropped first; `clear` drops all (the key cache was cleared: an erasure).
 */
export class RecentSeals {
  /**
   * Two generations: values go into the young one; when it is full it becomes the old one and the
   * one before is dropped whole (a Map used as a queue, deleting its first key on every insert, made
   * each insert walk the deleted entries and cost more than the decryption it saved).
   */
  private young = new Map<string, RecentSeal>();
  private old = new Map<string, RecentSeal>();
  /** Opens answered from here, and opens that had to decrypt (the tests read them). */
  hits = 0;
  misses = 0;

  /** At least `capacity / 2` and at most `capacity` of the values sealed last are kept. */
  constructor(private readonly capacity = 100_000) {}

  note(sealed: SealedField, key: Buffer, json: string): void {
    if (this.young.size >= Math.ceil(this.capacity / 2)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(sealed.iv, { subject: sealed.subject, key, ct: sealed.ct, json });
  }

  /** The JSON sealed as this value with this key, if this process sealed it lately. */
  recall(sealed: SealedField, key: Buffer): string | undefined {
    const entry = this.young.get(sealed.iv) ?? this.old.get(sealed.iv);
    if (!entry || entry.ct !== sealed.ct || entry.subject !== sealed.subject || !(entry.key === key || entry.key.equals(key))) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.json;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }
}

interface RecentSeal {
  subject: string;
  key: Buffer;
  ct: string;
  json: string;
}

/**
 * Seals one value for a subject; the subject is bound as associated data, so a sealed field cannot
 * be moved to another subject. With `recent`, the value is remembered for the process's own reads.
 */
export function sealValue(subject: string, key: Buffer, value: unknown, recent?: RecentSeals): SealedField {
  const json = JSON.stringify(value ?? null);
  const { iv, tag, ct } = encrypt(key, Buffer.from(json, 'utf8'), Buffer.from(subject, 'utf8'));
  const sealed: SealedField = {
    $sealed: 'aes-256-gcm/v1',
    subject,
    iv: iv.toString('base64'),
    tag: tag.toString('base64'),
    ct: ct.toString('base64'),
  };
  recent?.note(sealed, key, json);
  return sealed;
}

/**
 * Opens one sealed value: the value with the key, {@link ERASED} without one (destroyed) or when it
 * does not open. With `recent`, a value this process sealed lately with this key is not decrypted.
 */
export function openValue(sealed: SealedField, key: Buffer | null, recent?: RecentSeals): unknown {
  if (!key) return ERASED;
  const json = recent?.recall(sealed, key);
  if (json !== undefined) return JSON.parse(json);
  try {
    const plain = decrypt(
      key,
      { iv: Buffer.from(sealed.iv, 'base64'), tag: Buffer.from(sealed.tag, 'base64'), ct: Buffer.from(sealed.ct, 'base64') },
      Buffer.from(sealed.subject, 'utf8'),
    );
    return JSON.parse(plain.toString('utf8'));
  } catch {
    return ERASED;
  }
}

/** Wraps a subject key with the master key (stored in the key table, never in clear). */
export function wrapKey(masterKey: Buffer, subject: string, key: Buffer): string {
  const { iv, tag, ct } = encrypt(masterKey, key, Buffer.from(`erasure-key:${subject}`, 'utf8'));
  return Buffer.concat([iv, tag, ct]).toString('base64');
}

/**
 * A stored subject key that this process's master key does not open: the process runs with another
 * `ERASURE_MASTER_KEY` than the one that wrapped it (typically a CLI started elsewhere, which
 * generated its own key into its `DATA_DIR`). Named so that the operator knows what to set.
 */
export class ErasureMasterKeyMismatchError extends Error {
  constructor(readonly subject: string) {
    super(
      `The personal-data key of ${subject} does not open with this process's ERASURE_MASTER_KEY: ` +
        'set ERASURE_MASTER_KEY (or DATA_DIR, where it is generated as erasure.key) to the one the service uses',
    );
    this.name = 'ErasureMasterKeyMismatchError';
  }
}

export function unwrapKey(masterKey: Buffer, subject: string, wrapped: string): Buffer {
  const raw = Buffer.from(wrapped, 'base64');
  try {
    return decrypt(
      masterKey,
      { iv: raw.subarray(0, 12), tag: raw.subarray(12, 28), ct: raw.subarray(28) },
      Buffer.from(`erasure-key:${subject}`, 'utf8'),
    );
  } catch {
    throw new ErasureMasterKeyMismatchError(subject);
  }
}

function getPath(data: Record<string, unknown>, path: string): { parent: Record<string, unknown>; key: string } | null {
  const parts = path.split('.');
  let parent: unknown = data;
  for (const part of parts.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return null;
    parent = (parent as Record<string, unknown>)[part];
  }
  if (typeof parent !== 'object' || parent === null) return null;
  return { parent: parent as Record<string, unknown>, key: parts[parts.length - 1] };
}

/** Copies along a path so the caller's data is never mutated. */
function cloneAlong(data: Record<string, unknown>, path: string): Record<string, unknown> {
  const root = { ...data };
  let node: Record<string, unknown> = root;
  for (const part of path.split('.').slice(0, -1)) {
    const child = node[part];
    if (typeof child !== 'object' || child === null) return root;
    node[part] = Array.isArray(child) ? [...child] : { ...child };
    node = node[part] as Record<string, unknown>;
  }
  return root;
}

/** The subject an event's personal fields belong to; `streamSubject` answers for `subject: 'stream'` declarations. */
export function personalSubject<D>(personal: PersonalData<D>, data: D, streamSubject: string | null = null): string | null {
  return personal.subject === 'stream' ? streamSubject : personal.subject(data);
}

/**
 * Whether a personal field's value has nothing in it to protect: absent, null, empty (`{}`, `[]`,
 * `''`), already sealed, or erased (an imported event of an erased subject, ADR 0153). Such a
 * value stays in clear (ADR 0261): sealing an empty value hid nothing and cost a cipher, about
 * 150 bytes in the log and an opening on every read.
 */
function nothingToSeal(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== 'object') return false;
  if (isSealedField(value) || isErased(value)) return true;
  for (const _ in value) return false;
  return true;
}

/** Whether any declared personal field holds a value to seal (a run resumed by a timer carries no batch: no key lookup). */
export function hasPersonalValues<D extends object>(personal: PersonalData<D>, data: D): boolean {
  return personal.fields.some((path) => {
    const at = getPath(data as unknown as Record<string, unknown>, path);
    return !!at && !nothingToSeal(at.parent[at.key]);
  });
}

/** The event's data with every declared personal field that holds something sealed for the subject; the others stay as they are. */
export function sealPersonalFields<D extends object>(
  personal: PersonalData<D>,
  data: D,
  subject: string,
  key: Buffer,
  recent?: RecentSeals,
): D {
  let out = data as unknown as Record<string, unknown>;
  for (const path of personal.fields) {
    const at = getPath(out, path);
    if (!at || nothingToSeal(at.parent[at.key])) continue;
    out = cloneAlong(out, path);
    const target = getPath(out, path)!;
    target.parent[target.key] = sealValue(subject, key, target.parent[target.key], recent);
  }
  return out as unknown as D;
}

/**
 * The event's data with every sealed field opened: `keyOf(subject)` gives the subject's key, or null
 * once it is destroyed, and the field then reads as {@link ERASED}. Walks the whole data, so it needs
 * no declaration and opens events written under an older declaration too.
 */
export function openPersonalFields<D>(data: D, keyOf: (subject: string) => Buffer | null, recent?: RecentSeals): D {
  // Copies only along the paths to sealed values; what holds none is returned as it is (ADR 0184:
  // a copy of every event's whole data was a good part of the reads' garbage).
  const open = (value: unknown): unknown => {
    if (isSealedField(value)) return openValue(value, keyOf(value.subject), recent);
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const opened = open(value[i]);
        if (opened !== value[i]) (out ??= value.slice())[i] = opened;
      }
      return out ?? value;
    }
    if (typeof value === 'object' && value !== null) {
      // for-in over own keys, not Object.entries: the walk visits every object of every event
      // read, and a [key, value] array per property was a good part of a read's garbage.
      const record = value as Record<string, unknown>;
      let out: Record<string, unknown> | undefined;
      for (const k in record) {
        if (!Object.hasOwn(record, k)) continue;
        const v = record[k];
        const opened = open(v);
        if (opened !== v) (out ??= { ...record })[k] = opened;
      }
      return out ?? value;
    }
    return value;
  };
  return open(data) as D;
}

/** The subjects whose keys opening this data needs: lets a reader fetch every key of a batch of events at once. */
export function sealedSubjects(data: unknown, into: Set<string> = new Set()): Set<string> {
  if (isSealedField(data)) into.add(data.subject);
  else if (Array.isArray(data)) for (const v of data) sealedSubjects(v, into);
  else if (typeof data === 'object' && data !== null) {
    const record = data as Record<string, unknown>;
    for (const k in record) if (Object.hasOwn(record, k)) sealedSubjects(record[k], into);
  }
  return into;
}
