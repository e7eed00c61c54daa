import type { RecordedEvent } from '@notify/eventstore';
import type { Reactor } from '@notify/projection-runtime';
import { KafkaTopics } from '../topics';
import { RecordPublisher } from './kafka-publisher';
import { OutboundRecord } from './outbound-record';
import { RelayMapperRegistry } from './relay-mapper';

/** The relay's checkpoint name for a set of topics: new topics (another prefix) start from their own checkpoint. */
export function kafkaRelayName(topics: KafkaTopics): string {
  return `kafka-relay:${topics.events}`;
}

/**
 * Publishes the log to Kafka. A reactor: the runtime reads a batch after the checkpoint, this
 * maps it to records and resolves only once the broker acknowledged every one, and only then
 * may the runtime move the checkpoint (compare-and-set; at most every 500 ms, ADR 0281). A
 * failure anywhere leaves the checkpoint where it was and what follows it is published again:
 * at least once, never a gap. Through a backlog the next batch is read and mapped while the
 * broker acknowledges the current one.
 */
export class KafkaRelay implements Reactor {
  readonly name: string;
  readonly filter = {};
  /** One batch at a time, in log order: a stream's events are never in flight twice at once. */
  readonly concurrency = 1;
  /** A crash may publish up to 500 ms of records again: consumers drop them by event id (ADR 0281). */
  readonly repeatsTolerated = true;
  /** Through a backlog, the next batch is read and mapped while the broker acknowledges this one. */
  readonly readAhead = true;
  /** Records of batches mapped ahead, by batch (the runtime hands `handle` the array it prepared). */
  private readonly prepared = new WeakMap<readonly RecordedEvent[], Promise<readonly OutboundRecord[]>>();

  constructor(
    private readonly publisher: RecordPublisher,
    private readonly registry: RelayMapperRegistry,
    private readonly topics: KafkaTopics,
    readonly options: { startFrom?: 'beginning' | 'end'; batchSize?: number; enabled?: boolean } = {},
  ) {
    this.name = kafkaRelayName(topics);
  }

  get startFrom() {
    return this.options.startFrom;
  }

  get batchSize() {
    return this.options.batchSize;
  }

  get enabled() {
    return this.options.enabled ?? true;
  }

  /** Maps (and serializes) a batch ahead of its turn; a failure shows when the batch is handled. */
  prepare(events: readonly RecordedEvent[]): void {
    const records = this.records(events);
    records.catch(() => undefined);
    this.prepared.set(events, records);
  }

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    const prepared = this.prepared.get(events);
    this.prepared.delete(events);
    await this.publisher.publish(await (prepared ?? this.records(events)));
  }

  private async records(events: readonly RecordedEvent[]): Promise<readonly OutboundRecord[]> {
    const records = await this.registry.map(events, this.topics);
    this.publisher.prepare?.(records);
    return records;
  }

  close(): Promise<void> {
    return this.publisher.close();
  }
}
