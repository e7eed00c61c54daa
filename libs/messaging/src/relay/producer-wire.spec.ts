import { packRecords, unpackRecords, WireRecord } from './producer-wire';

const utf8 = (records: readonly WireRecord[]) =>
  records.reduce(
    (n, r) =>
      n +
      Buffer.byteLength(r.key) +
      (r.value === null ? 0 : Buffer.byteLength(r.value)) +
      Object.values(r.headers).reduce((m, v) => m + Buffer.byteLength(v), 0),
    0,
  );

/** What kafkajs would put on the wire for a record, as text (the unpacked side holds Buffers). */
const asText = (m: { key: Buffer; value: Buffer | null; headers: Record<string, Buffer> }) => ({
  key: m.key.toString(),
  value: m.value === null ? null : m.value.toString(),
  headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, v.toString()])),
});

describe('the producer thread wire (packed records)', () => {
  const records: WireRecord[] = [
    { topic: 'events', key: 'user-dev-ü1', value: '{"name":"Zoë 🎉"}', headers: { 'event-id': 'e1', 'event-type': 'UserIdentified' } },
    { topic: 'messages', key: 'm-1', value: '{}', headers: { 'event-id': 'e2' } },
    { topic: 'events', key: 'user-dev-u2', value: null, headers: {} },
    { topic: 'events', key: '', value: '', headers: { 'event-id': '', traceparent: '00-ab-cd-01' } },
  ];

  it('gives the thread every record, grouped by topic in order, with the same bytes', () => {
    const packed = packRecords(records, utf8(records));
    const unpacked = unpackRecords(packed);
    expect(unpacked.map((t) => t.topic)).toEqual(['events', 'messages']);
    expect(unpacked[0].messages.map(asText)).toEqual([
      { key: 'user-dev-ü1', value: '{"name":"Zoë 🎉"}', headers: { 'event-id': 'e1', 'event-type': 'UserIdentified' } },
      { key: 'user-dev-u2', value: null, headers: {} },
      { key: '', value: '', headers: { 'event-id': '', traceparent: '00-ab-cd-01' } },
    ]);
    expect(unpacked[1].messages.map(asText)).toEqual([{ key: 'm-1', value: '{}', headers: { 'event-id': 'e2' } }]);
  });

  it('keeps a tombstone apart from an empty value', () => {
    const [{ messages }] = unpackRecords(packRecords(records.slice(2), utf8(records.slice(2))));
    expect(messages[0].value).toBeNull();
    expect(messages[1].value).toEqual(Buffer.alloc(0));
  });

  it('crosses a thread boundary by transfer: the buffers it names are the whole message', () => {
    const packed = packRecords(records, utf8(records));
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage(packed, [packed.bytes, packed.layout.buffer]);
      // Moved, not copied: this side's buffers are detached.
      expect(packed.bytes.byteLength).toBe(0);
      expect(packed.layout.length).toBe(0);
      return new Promise<void>((resolve) =>
        port2.once('message', (received) => {
          expect(unpackRecords(received).flatMap((t) => t.messages.map(asText))).toHaveLength(records.length);
          resolve();
        }),
      );
    } finally {
      port1.close();
    }
  });

  it('refuses a byte count that does not match the records, rather than send them cut short', () => {
    const exact = utf8(records);
    expect(() => packRecords(records, exact - 1)).toThrow(RangeError);
    expect(() => packRecords(records, exact + 1)).toThrow(RangeError);
    // A character cut by the end of the space said (four bytes, one short) is not written at all.
    const emoji: WireRecord[] = [{ topic: 't', key: 'k', value: '🎉🎉', headers: {} }];
    expect(() => packRecords(emoji, 8)).toThrow(RangeError);
    expect(unpackRecords(packRecords(emoji, 9))[0].messages[0].value?.toString()).toBe('🎉🎉');
  });

  it('packs no records into an empty request', () => {
    expect(unpackRecords(packRecords([], 0))).toEqual([]);
  });
});
