import { inSpan, kafkaPublished, kafkaPublishFailures, SpanKind } from '@notify/observability';
import type { Logger } from '@notify/logging';
import { LogEntry, logLevel } from 'kafkajs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createKafka } from '../kafka-client';
import { kafkaLogCreator } from '../kafka-log';
import { kafkaClientConfig, KafkaSettings } from '../kafka-settings';
import { ensureTopics } from '../topic-admin';
import { OutboundRecord } from './outbound-record';
import { PackedRecords, packRecords, WireRecord } from './producer-wire';

/** Where the relay's records go. `publish` resolves only once the broker has acknowledged all of them. */
export interface RecordPublisher {
  publish(records: readonly OutboundRecord[]): Promise<void>;
  /** Does what publishing these records needs ahead of it (serializing), while earlier ones are still in flight. */
  prepare?(records: readonly OutboundRecord[]): void;
  close(): Promise<void>;
}

/** One produce request for the producer thread: its records packed, and how many go to each topic. */
interface ThreadRequest {
  packed: PackedRecords;
  perTopic: Map<string, number>;
}

interface Serialized {
  /** The record with its value as JSON text, as producer-wire.js packs it for the producer thread. */
  record: WireRecord;
  /** UTF-8 bytes of the key, the value and the header values: what the packed request holds. */
  payloadBytes: number;
  /** An estimate of the record's size in a request, on the safe side (payload, header names, framing). */
  bytes: number;
}

// Per-record framing in a v2 record batch is well under this; it keeps the estimate on the safe side.
const RECORD_OVERHEAD = 64;

function serialize(record: OutboundRecord): Serialized {
  // null is a tombstone: a record with no value (ADR 0179).
  const value = record.value === null ? null : JSON.stringify(record.value);
  let payloadBytes = Buffer.byteLength(record.key) + (value === null ? 0 : Buffer.byteLength(value));
  let framing = RECORD_OVERHEAD;
  for (const name in record.headers) {
    payloadBytes += Buffer.byteLength(record.headers[name]);
    framing += name.length + 8;
  }
  return { record: { topic: record.topic, key: record.key, value, headers: record.headers }, payloadBytes, bytes: payloadBytes + framing };
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
 * An idempotent kafkajs producer (acks = all) that publishes records in order, on a thread of its
 * own (ADR 0282, kafka-producer.worker.js); serializing, topic creation, metrics and spans stay here.
 *
 * Any failed send throws the producer away: a send that failed after retries may still have
 * been written, and kafkajs would then reuse its sequence numbers and be refused by the broker
 * for good (OUT_OF_ORDER_SEQUENCE_NUMBER). A new producer gets a new producer id, so the
 * retried batch is accepted; the copy that did land is a duplicate consumers drop by event id.
 */
export class KafkaPublisher implements RecordPublisher {
  private thread?: Promise<ProducerThread>;
  /** The thread `thread` resolves to, once started. */
  private live?: ProducerThread;
  private topicsReady = false;
  /** Batches made into requests ahead of their publish (see prepare), by the batch's array; used once. */
  private readonly ahead = new WeakMap<readonly OutboundRecord[], ThreadRequest[]>();

  constructor(
    private readonly settings: KafkaSettings,
    private readonly options: { role?: string; logger?: Logger } = {},
  ) {}

  /**
   * Makes the requests of a batch ahead of its publish, while an earlier batch is in flight: the
   * values' JSON text, the split under KAFKA_MAX_REQUEST_BYTES, the packed records (ADR 0285).
   */
  prepare(records: readonly OutboundRecord[]): void {
    this.ahead.set(records, this.requests(records));
  }

  private requests(records: readonly OutboundRecord[]): ThreadRequest[] {
    return chunkBySize(records.map(serialize), this.settings.maxRequestBytes).map((chunk) => {
      let payloadBytes = 0;
      const perTopic = new Map<string, number>();
      for (const { record, payloadBytes: n } of chunk) {
        payloadBytes += n;
        perTopic.set(record.topic, (perTopic.get(record.topic) ?? 0) + 1);
      }
      return {
        packed: packRecords(
          chunk.map((s) => s.record),
          payloadBytes,
        ),
        perTopic,
      };
    });
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
    try {
      const thread = await this.connected();
      // Made ahead or now; used once either way: sending moves a request's buffers to the thread.
      const requests = this.ahead.get(records) ?? this.requests(records);
      this.ahead.delete(records);
      for (const { packed, perTopic } of requests) {
        await thread.send(packed);
        for (const [topic, count] of perTopic) kafkaPublished.inc({ topic }, count);
      }
    } catch (error) {
      kafkaPublishFailures.inc();
      throw error;
    }
  }

  /** Connects (creating missing topics) ahead of the first batch; publish does it on demand anyway. */
  async connect(): Promise<void> {
    await this.connected();
  }

  async close(): Promise<void> {
    const current = this.thread;
    this.thread = this.live = undefined;
    if (current) await current.then((t) => t.close()).catch(() => undefined);
  }

  private connected(): Promise<ProducerThread> {
    this.thread ??= this.open().catch(async (error: unknown) => {
      this.thread = undefined;
      throw error;
    });
    return this.thread;
  }

  private async open(): Promise<ProducerThread> {
    const role = this.options.role ?? 'relay';
    if (this.settings.createTopics && !this.topicsReady) {
      const admin = createKafka(this.settings, { role, logger: this.options.logger }).admin();
      await admin.connect();
      try {
        const report = await ensureTopics(admin, this.settings, this.options.logger);
        this.options.logger?.info({ topics: report }, 'kafka topics ready');
        this.topicsReady = true;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    }
    const thread: ProducerThread = new ProducerThread(
      {
        client: { ...kafkaClientConfig(this.settings, role), retry: KAFKA_RETRY },
        timeoutMs: this.settings.requestTimeoutMs,
        producer: { idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, retry: KAFKA_RETRY },
      },
      kafkaLogCreator(this.options.logger)(),
      () => {
        // The thread ended on its own (it failed): the next publish starts another.
        if (this.live === thread) this.live = this.thread = undefined;
      },
    );
    this.live = thread;
    try {
      await thread.connect();
    } catch (error) {
      await thread.close();
      throw error;
    }
    return thread;
  }
}

/** The retry policy of the producer's client and of the producer itself (bounded, see createKafka). */
const KAFKA_RETRY = { retries: 5, initialRetryTime: 300, maxRetryTime: 5000 };

/** An error the producer thread reported, rebuilt with the fields callers look at (type, retriable). */
function threadError(error: { name?: string; message?: string; type?: string; retriable?: boolean; stack?: string }): Error {
  const rebuilt = Object.assign(new Error(error.message ?? 'the Kafka producer thread failed'), {
    type: error.type,
    retriable: error.retriable,
  });
  if (error.name) rebuilt.name = error.name;
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}

/** The main thread's end of kafka-producer.worker.js: one promise per send, answered in any order. */
class ProducerThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private connecting?: { resolve: () => void; reject: (error: Error) => void };
  private nextId = 0;
  private readonly exited: Promise<void>;

  constructor(workerData: { client: object; timeoutMs: number; producer: object }, log: (entry: LogEntry) => void, onExit: () => void) {
    this.worker = new Worker(path.join(__dirname, 'kafka-producer.worker.js'), { workerData });
    this.worker.on('message', (message: ThreadReply) => {
      if ('log' in message)
        log({
          namespace: message.log.namespace,
          level: message.log.level,
          label: '',
          log: { ...message.log.log, timestamp: '', logger: 'kafkajs' },
        });
      else if ('sent' in message) this.settle(message.sent);
      else if ('failed' in message) this.settle(message.failed, threadError(message.error));
      else if ('connected' in message) {
        const waiting = this.connecting;
        this.connecting = undefined;
        if (message.connected) waiting?.resolve();
        else waiting?.reject(threadError(message.error ?? {}));
      }
    });
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        const error = new Error(`the Kafka producer thread ended (exit code ${code})`);
        this.connecting?.reject(error);
        this.connecting = undefined;
        for (const id of [...this.pending.keys()]) this.settle(id, error);
        onExit();
        resolve();
      }),
    );
    this.worker.on('error', (error) =>
      log({
        namespace: 'producer-thread',
        level: logLevel.ERROR,
        label: 'ERROR',
        log: { message: error.message, timestamp: '', logger: 'kafkajs' },
      }),
    );
  }

  private settle(id: number, error?: Error): void {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (error) waiting?.reject(error);
    else waiting?.resolve();
  }

  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.connecting = { resolve, reject };
      this.worker.postMessage('connect');
    });
  }

  /** Sends a packed request; its buffers move to the thread (unusable here afterwards). */
  send(records: PackedRecords): Promise<void> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ send: id, records }, [records.bytes, records.layout.buffer]);
    });
  }

  /** Disconnects the producer and ends the thread (ended at once if it does not answer within 10 s). */
  async close(): Promise<void> {
    this.worker.postMessage('close');
    const timer = setTimeout(() => void this.worker.terminate(), 10_000);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

type ThreadReply =
  | { log: { namespace: string; level: logLevel; log: { message: string } & Record<string, unknown> } }
  | { sent: number }
  | { failed: number; error: { name?: string; message?: string; type?: string; retriable?: boolean; stack?: string } }
  | { connected: boolean; error?: { message?: string } };

/** The publisher of a relay that is switched off (KAFKA_BROKERS unset); the runtime never calls it. */
export const kafkaOffPublisher: RecordPublisher = {
  publish: () => Promise.reject(new Error('Kafka is off: KAFKA_BROKERS is not set')),
  close: () => Promise.resolve(),
};
