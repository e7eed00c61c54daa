// How a KafkaPublisher hands a request's records to its producer thread (ADR 0285): every key,
// value and header value as UTF-8 bytes in one ArrayBuffer, and their lengths in one Int32Array,
// both transferred (moved, not copied); the thread reads keys, values and header values as views
// of that buffer. Passing the records as objects of strings instead cost the structured clone of
// every string and object on both sides and a Buffer.from of every value in the thread.
// Plain CommonJS on purpose: the producer thread loads it by path, from sources and from the build.
//
// layout, per record in order: topic (index into names), key length, value length (-1: a
// tombstone, no value), header count, then per header: name (index into names), value length.
// The bytes follow the same order: key, value, then each header value.
'use strict';

/**
 * @param {readonly { topic: string, key: string, value: string | null, headers: Record<string, string> }[]} records
 * @param {number} byteLength the UTF-8 bytes of every key, value and header value together
 */
function packRecords(records, byteLength) {
  // Four bytes to spare: a record longer than said then always writes past byteLength (write()
  // stops short, silently, at the end of the buffer, and never splits a character).
  const bytes = Buffer.allocUnsafeSlow(byteLength + 4);
  const names = [];
  const index = new Map();
  const nameOf = (name) => {
    let i = index.get(name);
    if (i === undefined) {
      i = names.length;
      names.push(name);
      index.set(name, i);
    }
    return i;
  };
  const layout = [];
  let offset = 0;
  for (const record of records) {
    const keyBytes = bytes.write(record.key, offset);
    offset += keyBytes;
    let valueBytes = -1;
    if (record.value !== null) {
      valueBytes = bytes.write(record.value, offset);
      offset += valueBytes;
    }
    const countAt = layout.length + 3;
    layout.push(nameOf(record.topic), keyBytes, valueBytes, 0);
    let count = 0;
    for (const name in record.headers) {
      const written = bytes.write(record.headers[name], offset);
      offset += written;
      layout.push(nameOf(name), written);
      count++;
    }
    layout[countAt] = count;
  }
  if (offset !== byteLength) throw new RangeError(`packRecords: the records hold other than the ${byteLength} bytes given`);
  return { bytes: bytes.buffer, byteLength, layout: Int32Array.from(layout), names };
}

/**
 * The records of a packed request, grouped by topic in their order, as kafkajs' sendBatch takes
 * them: keys, values and header values are Buffers over the packed bytes.
 * @param {{ bytes: ArrayBuffer, byteLength: number, layout: Int32Array, names: string[] }} packed
 */
function unpackRecords(packed) {
  const bytes = Buffer.from(packed.bytes, 0, packed.byteLength);
  const { layout, names } = packed;
  const byTopic = new Map();
  let offset = 0;
  for (let i = 0; i < layout.length;) {
    const topic = names[layout[i]];
    const keyBytes = layout[i + 1];
    const valueBytes = layout[i + 2];
    const count = layout[i + 3];
    i += 4;
    const key = bytes.subarray(offset, offset + keyBytes);
    offset += keyBytes;
    let value = null;
    if (valueBytes >= 0) {
      value = bytes.subarray(offset, offset + valueBytes);
      offset += valueBytes;
    }
    const headers = {};
    for (let h = 0; h < count; h++, i += 2) {
      headers[names[layout[i]]] = bytes.subarray(offset, offset + layout[i + 1]);
      offset += layout[i + 1];
    }
    let messages = byTopic.get(topic);
    if (!messages) byTopic.set(topic, (messages = []));
    messages.push({ key, value, headers });
  }
  if (offset !== bytes.length) throw new RangeError(`unpackRecords: the layout covers ${offset} of ${bytes.length} bytes`);
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

module.exports = { packRecords, unpackRecords };
