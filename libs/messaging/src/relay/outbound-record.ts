import { RecordHeaders } from '../envelopes/headers';

/** One Kafka record the relay will publish, before serialization. */
export interface OutboundRecord {
  topic: string;
  /** Decides the partition: records with one key keep their relative order. */
  key: string;
  /** Serialized as JSON; null publishes a tombstone (no value). */
  value: unknown;
  headers: RecordHeaders;
}
