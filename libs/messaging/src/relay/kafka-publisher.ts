import { inSpan, kafkaPublished, kafkaPublishFailures, SpanKind } from '@notify/observability';
import type { Logger } from '@notify/logging';
import { Message, Partitioners, Producer } from 'kafkajs';
import { createKafka } from '../kafka-client';
import { KafkaSettings } from '../kafka-settings';
import { ensureTopics } from '../topic-admin';
import { OutboundRecord } from './outbound-record';

/** Where the relay's records go. `publish` resolves only once the broker has acknowledged all of them. */
export interface RecordPublisher {
  publish(records: readonly OutboundRecord[]): Promise<void>;
  /** Does what publishing these records needs ahead of it (serializing), while earlier ones are still in flight. */
  prepare?(records: readonly OutboundRecord[]): void;
  close(): Promise<void>;
}

interface Serialized {
  topic: string;
  message: Message;
  bytes: number;
}

// Per-record framing in a v2 record batch is well under this; it keeps the estimate on the safe side.
const RECORD_OVERHEAD = 64;

function serialize(record: OutboundRecord): Serialized {
  // null is a tombstone: a record with no value (ADR 0179).
  const value = record.value === null ? null : Buffer.from(JSON.stringify(record.value));
  let bytes = RECORD_OVERHEAD + Buffer.byteLength(record.key) + (value?.length ?? 0);
  for (const [k, v] of Object.entries(record.headers)) bytes += Buffer.byteLength(k) + Buffer.byteLength(v) + 8;
  return { topic: record.topic, message: { key: record.key, value, headers: record.headers }, bytes };
}

/** Consecutive slices whose estimated size stays under `maxBytes` (a single larger record goes alone). */
export function chunkBySize<T extends { bytes: number }>(items: readonly T[], maxBytes: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    if (current.length && size + item.bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += item.bytes;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * An idempotent kafkajs producer (acks = all) that publishes records in order.
 *
 * Any failed send throws the producer away: a send that failed after retries may still have
 * been written, and kafkajs would then reuse its sequence numbers and be refused by the broker
 * for good (OUT_OF_ORDER_SEQUENCE_NUMBER). A new producer gets a new producer id, so the
 * retried batch is accepted; the copy that did land is a duplicate consumers drop by event id.
 */
export class KafkaPublisher implements RecordPublisher {
  private producer?: Promise<Producer>;
  private topicsReady = false;
  /** Records serialized ahead of their publish (see prepare). */
  private readonly serialized = new WeakMap<OutboundRecord, Serialized>();

  constructor(
    private readonly settings: KafkaSettings,
    private readonly options: { role?: string; logger?: Logger } = {},
  ) {}

  prepare(records: readonly OutboundRecord[]): void {
    for (const record of records) this.serialized.set(record, serialize(record));
  }

  async publish(records: readonly OutboundRecord[]): Promise<void> {
    if (records.length === 0) return;
    // One producer span per batch: a child of the traced work when the whole batch comes from
    // one trace, otherwise a root span linked to each record's trace (at most 64 links).
    const traced = [...new Set(records.map((r) => r.headers.traceparent).filter((t): t is string => !!t))];
    await inSpan(
      'kafka publish',
      {
        kind: SpanKind.PRODUCER,
        parent: traced.length === 1 ? { traceparent: traced[0] } : undefined,
        links: traced.length > 1 ? traced.slice(0, 64).map((traceparent) => ({ traceparent })) : undefined,
        attributes: { 'messaging.system': 'kafka', 'messaging.operation.type': 'send', 'messaging.batch.message_count': records.length },
      },
      () => this.send(records),
    );
  }

  private async send(records: readonly OutboundRecord[]): Promise<void> {
    const producer = await this.connected();
    try {
      const serialized = records.map((r) => this.serialized.get(r) ?? serialize(r));
      for (const chunk of chunkBySize(serialized, this.settings.maxRequestBytes)) {
        const byTopic = new Map<string, Message[]>();
        for (const { topic, message } of chunk) {
          const messages = byTopic.get(topic);
          if (messages) messages.push(message);
          else byTopic.set(topic, [message]);
        }
        await producer.sendBatch({
          acks: -1,
          timeout: this.settings.requestTimeoutMs,
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        });
        for (const [topic, messages] of byTopic) kafkaPublished.inc({ topic }, messages.length);
      }
    } catch (error) {
      kafkaPublishFailures.inc();
      await this.reset();
      throw error;
    }
  }

  /** Connects (creating missing topics) ahead of the first batch; publish does it on demand anyway. */
  async connect(): Promise<void> {
    await this.connected();
  }

  async close(): Promise<void> {
    await this.reset();
  }

  private connected(): Promise<Producer> {
    this.producer ??= this.open().catch(async (error: unknown) => {
      this.producer = undefined;
      throw error;
    });
    return this.producer;
  }

  private async open(): Promise<Producer> {
    const kafka = createKafka(this.settings, { role: this.options.role ?? 'relay', logger: this.options.logger });
    if (this.settings.createTopics && !this.topicsReady) {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const report = await ensureTopics(admin, this.settings, this.options.logger);
        this.options.logger?.info({ topics: report }, 'kafka topics ready');
        this.topicsReady = true;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    }
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5000 },
    });
    await producer.connect();
    return producer;
  }

  private async reset(): Promise<void> {
    const current = this.producer;
    this.producer = undefined;
    if (current) await current.then((p) => p.disconnect()).catch(() => undefined);
  }
}

/** The publisher of a relay that is switched off (KAFKA_BROKERS unset); the runtime never calls it. */
export const kafkaOffPublisher: RecordPublisher = {
  publish: () => Promise.reject(new Error('Kafka is off: KAFKA_BROKERS is not set')),
  close: () => Promise.resolve(),
};
