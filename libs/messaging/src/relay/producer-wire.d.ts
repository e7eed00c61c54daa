/** A request's records as the producer thread takes them (producer-wire.js, ADR 0285). */
export interface PackedRecords {
  /** Every key, value and header value in UTF-8, in record order; transferred to the thread. */
  bytes: ArrayBuffer;
  /** How many of `bytes` the records hold. */
  byteLength: number;
  /** Per record: topic, key length, value length (-1: tombstone), header count, then (name, value length) per header. */
  layout: Int32Array<ArrayBuffer>;
  /** Topics and header names, indexed from `layout`. */
  names: string[];
}

export interface WireRecord {
  topic: string;
  key: string;
  value: string | null;
  headers: Record<string, string>;
}

/** Packs records whose keys, values and header values hold `byteLength` UTF-8 bytes together (throws when they do not). */
export function packRecords(records: readonly WireRecord[], byteLength: number): PackedRecords;

/** The records of a packed request grouped by topic, in order, with Buffers over the packed bytes. */
export function unpackRecords(packed: PackedRecords): {
  topic: string;
  messages: { key: Buffer; value: Buffer | null; headers: Record<string, Buffer> }[];
}[];
