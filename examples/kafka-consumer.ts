/**
 * A downstream consumer of the notify event stream, deduplicating by event id.
 *
 * The relay publishes at least once: after a crash or a broker outage some records are
 * published again. A duplicate always repeats the `event-id` header (and the whole value), so a
 * consumer that remembers which ids it handled processes each event once. This example keeps
 * the ids in memory (a bounded window, enough for the relay's re-publications, which are never
 * further apart than a few batches); a consumer whose effects must never repeat stores the id
 * together with its effect, in the same transaction (see docs/kafka/README.md).
 *
 * Run (after `npm run build`):
 *   KAFKA_BROKERS=127.0.0.1:9092 node dist/examples/kafka-consumer.js
 * Optional: KAFKA_TOPIC (default notify.events.v1), KAFKA_GROUP_ID (default notify-example).
 *
 * It depends only on kafkajs, so it can be copied into another project as it is.
 */
import { Kafka, logLevel } from 'kafkajs';

/** What a handler receives: the parsed envelope and the routing headers. */
export interface StreamEvent {
  id: string;
  type: string;
  key: string;
  environment?: string;
  schemaVersion: number;
  partition: number;
  offset: string;
  /** The envelope (docs/kafka/schemas/envelopes/*.json), parsed from JSON. */
  value: any;
}

/** Remembers the last `capacity` event ids. */
export class SeenIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity = 100_000) {}

  /** true the first time an id is offered (within the window), false for a repeat. */
  firstTime(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}

export interface ConsumerOptions {
  brokers: string[];
  topic: string;
  groupId: string;
  fromBeginning?: boolean;
  seen?: SeenIds;
  signal?: AbortSignal;
  /** Called once per event id, in order per key; the offset is committed after it resolves. */
  handle(event: StreamEvent): Promise<void>;
  /** Called for each record dropped as a duplicate. */
  onDuplicate?(event: StreamEvent): void;
}

export async function runConsumer(options: ConsumerOptions): Promise<void> {
  const kafka = new Kafka({ clientId: `${options.groupId}-consumer`, brokers: options.brokers, logLevel: logLevel.WARN });
  const consumer = kafka.consumer({ groupId: options.groupId });
  const seen = options.seen ?? new SeenIds();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: options.topic, fromBeginning: options.fromBeginning ?? true });
    await consumer.run({
      // One record at a time, offset committed only after the handler resolved: at least once here too.
      eachMessage: async ({ partition, message }) => {
        const header = (name: string) => message.headers?.[name]?.toString();
        const event: StreamEvent = {
          id: header('event-id') ?? '',
          type: header('event-type') ?? '',
          key: message.key?.toString() ?? '',
          environment: header('environment'),
          schemaVersion: Number(header('schema-version') ?? 0),
          partition,
          offset: message.offset,
          value: JSON.parse(message.value?.toString() ?? 'null'),
        };
        if (!seen.firstTime(event.id)) return options.onDuplicate?.(event);
        await options.handle(event);
      },
    });
    await new Promise<void>((resolve) => {
      if (options.signal?.aborted) return resolve();
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await consumer.disconnect();
  }
}

if (require.main === module) {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  runConsumer({
    brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    topic: process.env.KAFKA_TOPIC ?? 'notify.events.v1',
    groupId: process.env.KAFKA_GROUP_ID ?? 'notify-example',
    signal: controller.signal,
    handle: async (event) => {
      console.log(
        `${event.environment ?? '-'} ${event.key} #${event.value.revision ?? ''} ${event.type} ${JSON.stringify(event.value.data)}`,
      );
    },
    onDuplicate: (event) => console.error(`skipped duplicate ${event.id} (${event.type})`),
  }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
