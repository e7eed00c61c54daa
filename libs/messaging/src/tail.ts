import type { Logger } from '@notify/logging';
import { randomUUID } from 'node:crypto';
import { IHeaders } from 'kafkajs';
import { createKafka } from './kafka-client';
import { KafkaSettings } from './kafka-settings';

export interface TailedRecord {
  topic: string;
  partition: number;
  offset: string;
  timestamp: string;
  key: string | null;
  headers: Record<string, string>;
  /** The value parsed as JSON, or the raw string when it is not JSON. */
  value: unknown;
}

export interface TailOptions {
  topic: string;
  fromBeginning?: boolean;
  /** Consumer group whose offsets are committed (resume where it stopped); default: a throw-away group, nothing committed. */
  groupId?: string;
  /** Stop after this many records. */
  maxMessages?: number;
  signal?: AbortSignal;
  logger?: Logger;
  onRecord(record: TailedRecord): void | Promise<void>;
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v === undefined) continue;
    out[k] = (Array.isArray(v) ? v : [v]).map((x) => x.toString()).join(',');
  }
  return out;
}

function parseValue(value: Buffer | null): unknown {
  if (value === null) return null;
  const text = value.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Follows a topic until `maxMessages` records were seen or `signal` aborts; resolves with the count. */
export async function tailTopic(settings: KafkaSettings, options: TailOptions): Promise<number> {
  const consumer = createKafka(settings, { role: 'tail', logger: options.logger }).consumer({
    groupId: options.groupId ?? `${settings.clientId}-tail-${randomUUID()}`,
    allowAutoTopicCreation: false,
  });
  let seen = 0;
  let stopped = false;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = () => ((stopped = true), resolve())));
  const done = () => stopped;
  const onAbort = () => finish();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) finish();
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: options.topic, fromBeginning: options.fromBeginning ?? false });
    await consumer.run({
      autoCommit: options.groupId !== undefined,
      // Offsets are resolved one by one, so a named group never commits a record it did not print.
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (const message of batch.messages) {
          if (done() || !isRunning() || isStale()) return;
          seen++;
          await options.onRecord({
            topic: batch.topic,
            partition: batch.partition,
            offset: message.offset,
            timestamp: new Date(Number(message.timestamp)).toISOString(),
            key: message.key?.toString('utf8') ?? null,
            headers: decodeHeaders(message.headers),
            value: parseValue(message.value),
          });
          resolveOffset(message.offset);
          await heartbeat();
          if (options.maxMessages !== undefined && seen >= options.maxMessages) finish();
        }
      },
    });
    await finished;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await consumer.disconnect().catch(() => undefined);
  }
  return seen;
}
