import { eventContracts, MessageCreated, UserIdentified } from '@notify/contracts';
import {
  ERASED,
  ErasureMasterKeyMismatchError,
  generateKey,
  hasPersonalValues,
  isErased,
  isSealedField,
  openPersonalFields,
  openValue,
  personalSubject,
  RecentSeals,
  sealPersonalFields,
  sealValue,
  sealedSubjects,
  unwrapKey,
  wrapKey,
} from './personal-fields';

const identified = {
  user_id: 'u-1',
  properties: { email: 'ada@example.com', phone_number: '+15550100', favourite: 'tea' },
  identified_at: '2026-01-01T00:00:00.000Z',
};

describe('personal field declarations', () => {
  it('declare the user properties of UserIdentified, for the user', () => {
    expect(UserIdentified.personal?.fields).toEqual(['properties']);
    expect(personalSubject(UserIdentified.personal!, identified)).toBe('u-1');
  });

  it('declare the recipient snapshot and rendered content of MessageCreated, for user recipients only', () => {
    const personal = MessageCreated.personal!;
    expect(personal.fields).toEqual(expect.arrayContaining(['recipient_snapshot', 'content', 'data']));
    const base = { recipient: { type: 'user' as const, id: 'u-1' } } as Parameters<Exclude<typeof personal.subject, 'stream'>>[0];
    expect(personalSubject(personal, base)).toBe('u-1');
    expect(personalSubject(personal, { ...base, recipient: { type: 'object', collection: 'projects', id: 'p' } })).toBeNull();
  });

  it('take a stream subject for delivery logs, which name no recipient', () => {
    const completed = eventContracts.get('MessageDeliveryAttemptCompleted')!;
    expect(completed.personal?.fields).toContain('logs');
    expect(personalSubject(completed.personal!, {}, 'u-9')).toBe('u-9');
  });

  it('name only top-level fields that exist in each schema', () => {
    for (const contract of eventContracts.values()) {
      if (!contract.personal) continue;
      const shape = (contract.data as unknown as { shape?: Record<string, unknown> }).shape;
      expect(shape).toBeDefined();
      for (const path of contract.personal.fields) expect(Object.keys(shape!)).toContain(path.split('.')[0]);
    }
  });
});

describe('sealing and opening personal fields', () => {
  it('seals the declared fields, leaves the others, and opens them back with the key', () => {
    const key = generateKey();
    const sealed = sealPersonalFields(UserIdentified.personal!, identified, 'u-1', key);
    expect(isSealedField(sealed.properties)).toBe(true);
    expect(sealed.user_id).toBe('u-1');
    expect(JSON.stringify(sealed)).not.toContain('ada@example.com');
    expect(identified.properties.email).toBe('ada@example.com');
    expect(openPersonalFields(sealed, () => key)).toEqual(identified);
  });

  it('gives every sealed value an IV of its own, past refills of the random pool, and each opens', () => {
    const key = generateKey();
    const sealed = Array.from({ length: 3000 }, (_, i) => sealValue('u-1', key, { i }));
    expect(new Set(sealed.map((v) => v.iv)).size).toBe(3000);
    expect(sealed.every((v) => Buffer.from(v.iv, 'base64').length === 12)).toBe(true);
    expect(sealed.map((v) => openValue(v, key))).toEqual(sealed.map((_, i) => ({ i })));
    const wrapped = wrapKey(key, 'u-2', generateKey());
    expect(unwrapKey(key, 'u-2', wrapped)).toHaveLength(32);
  });

  it('copies only along the paths to sealed values when opening', () => {
    const key = generateKey();
    const plain = { list: [1, 2], nested: { a: 1 } };
    const data = { ...plain, secret: sealValue('u-1', key, 's'), deep: { keep: { b: 2 }, hidden: sealValue('u-1', key, 'h') } };
    const opened = openPersonalFields(data, () => key);
    expect(opened).toEqual({ ...plain, secret: 's', deep: { keep: { b: 2 }, hidden: 'h' } });
    expect(opened).not.toBe(data);
    expect(opened.list).toBe(data.list);
    expect(opened.nested).toBe(data.nested);
    expect(opened.deep.keep).toBe(data.deep.keep);
    expect(isSealedField(data.deep.hidden)).toBe(true);
    expect(openPersonalFields(plain, () => key)).toBe(plain);
  });

  it('reads a field as erased once the key is destroyed', () => {
    const sealed = sealPersonalFields(UserIdentified.personal!, identified, 'u-1', generateKey());
    const opened = openPersonalFields(sealed, () => null);
    expect(opened.properties).toEqual(ERASED);
    expect(isErased(opened.properties)).toBe(true);
    expect(opened.identified_at).toBe(identified.identified_at);
  });

  it('reads a field as erased under a wrong key or when moved to another subject', () => {
    const key = generateKey();
    const sealed = sealValue('u-1', key, { email: 'x@y.z' });
    expect(openValue(sealed, generateKey())).toEqual(ERASED);
    expect(openValue({ ...sealed, subject: 'u-2' }, key)).toEqual(ERASED);
    expect(openValue(sealed, key)).toEqual({ email: 'x@y.z' });
  });

  it('leaves absent and null fields as they are and does not seal twice', () => {
    const key = generateKey();
    const personal = MessageCreated.personal!;
    const data = { recipient: { type: 'user', id: 'u-1' }, recipient_snapshot: null, content: { body: 'hi' } } as never;
    const once = sealPersonalFields(personal, data, 'u-1', key) as Record<string, unknown>;
    expect(once.recipient_snapshot).toBeNull();
    expect(once.data).toBeUndefined();
    const twice = sealPersonalFields(personal, once as never, 'u-1', key) as Record<string, unknown>;
    expect(twice.content).toBe(once.content);
  });

  it('leaves empty values in clear and needs no key for an event whose personal fields are all empty (ADR 0261)', () => {
    const key = generateKey();
    const personal = MessageCreated.personal!;
    const empty = {
      recipient: { type: 'user', id: 'u-1' },
      recipient_snapshot: {},
      data: {},
      activities: [],
      metadata: '',
    } as never;
    expect(hasPersonalValues(personal, empty)).toBe(false);
    expect(sealPersonalFields(personal, empty, 'u-1', key)).toBe(empty);
    const some = { ...(empty as object), data: { plan: 'pro' }, activities: [{ id: 'a' }] } as never;
    expect(hasPersonalValues(personal, some)).toBe(true);
    const sealed = sealPersonalFields(personal, some, 'u-1', key) as Record<string, unknown>;
    expect(isSealedField(sealed.data)).toBe(true);
    expect(isSealedField(sealed.activities)).toBe(true);
    expect(sealed.recipient_snapshot).toEqual({});
    expect(sealed.metadata).toBe('');
    expect(openPersonalFields(sealed, () => key)).toEqual(some);
    // Zero and false are values.
    expect(hasPersonalValues({ subject: 'stream', fields: ['n'] }, { n: 0 })).toBe(true);
    expect(hasPersonalValues({ subject: 'stream', fields: ['n'] }, { n: false })).toBe(true);
  });

  it('lists the subjects a batch needs keys for, nested anywhere', () => {
    const a = sealValue('u-1', generateKey(), 1);
    const b = sealValue('u-2', generateKey(), 2);
    expect([...sealedSubjects({ x: a, y: [{ z: b }], w: 'plain' })].sort()).toEqual(['u-1', 'u-2']);
  });

  it('wraps subject keys with the master key, bound to the subject', () => {
    const master = generateKey();
    const key = generateKey();
    const wrapped = wrapKey(master, 'u-1', key);
    expect(unwrapKey(master, 'u-1', wrapped).equals(key)).toBe(true);
    expect(() => unwrapKey(master, 'u-2', wrapped)).toThrow();
    expect(() => unwrapKey(generateKey(), 'u-1', wrapped)).toThrow();
  });

  it('names the master key setting when a stored key does not open with this master key', () => {
    const wrapped = wrapKey(generateKey(), 'development/user/u-1', generateKey());
    expect(() => unwrapKey(generateKey(), 'development/user/u-1', wrapped)).toThrow(ErasureMasterKeyMismatchError);
    expect(() => unwrapKey(generateKey(), 'development/user/u-1', wrapped)).toThrow(
      /development\/user\/u-1 does not open with this process's ERASURE_MASTER_KEY: set ERASURE_MASTER_KEY \(or DATA_DIR/,
    );
  });
});

describe('values this process sealed lately (RecentSeals)', () => {
  it('opens them from the JSON it sealed, as fresh objects equal to what decryption gives', () => {
    const key = generateKey();
    const recent = new RecentSeals();
    const sealed = sealPersonalFields(UserIdentified.personal!, identified, 'u-1', key, recent);
    const first = openPersonalFields(sealed, () => key, recent);
    const second = openPersonalFields(sealed, () => key, recent);
    expect(recent.hits).toBe(2);
    expect(recent.misses).toBe(0);
    expect(first).toEqual(openPersonalFields(sealed, () => key));
    expect(first.properties).not.toBe(second.properties);
  });

  it('still reads a value as erased once its key is destroyed, or under another key of the subject', () => {
    const key = generateKey();
    const recent = new RecentSeals();
    const sealed = sealValue('u-1', key, { email: 'x@y.z' }, recent);
    expect(openValue(sealed, null, recent)).toEqual(ERASED);
    expect(openValue(sealed, generateKey(), recent)).toEqual(ERASED);
    expect(openValue({ ...sealed, subject: 'u-2' }, key, recent)).toEqual(ERASED);
    // A forged row with a remembered IV but another ciphertext does not get the remembered value.
    const other = sealValue('u-1', key, 'other');
    expect(openValue({ ...other, iv: sealed.iv }, key, recent)).toEqual(ERASED);
    expect(recent.hits).toBe(0);
    expect(openValue(sealed, key, recent)).toEqual({ email: 'x@y.z' });
    expect(recent.hits).toBe(1);
  });

  it('keeps the newest values up to its capacity and decrypts the ones it dropped', () => {
    const key = generateKey();
    const recent = new RecentSeals(4);
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((v) => sealValue('u-1', key, v, recent));
    // Two generations of two: the first two went when the third generation began.
    expect(recent.size).toBe(3);
    expect([a, b, c, d, e].map((v) => openValue(v, key, recent))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(recent.misses).toBe(2);
    expect(recent.hits).toBe(3);
    recent.clear();
    expect(openValue(e, key, recent)).toBe('e');
    expect(recent.misses).toBe(3);
  });
});
