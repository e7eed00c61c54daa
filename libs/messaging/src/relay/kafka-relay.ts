import type { RecordedEvent } from '@notify/eventstore';
import type { Reactor } from '@notify/projection-runtime';
import { KafkaTopics } from '../topics';
import { RecordPublisher } from './kafka-publisher';
import { RelayMapperRegistry } from './relay-mapper';

/** The relay's checkpoint name for a set of topics: new topics (another prefix) start from their own checkpoint. */
export function kafkaRelayName(topics: KafkaTopics): string {
  return `kafka-relay:${topics.events}`;
}

/**
 * Publishes the log to Kafka. A reactor: the runtime reads a batch after the checkpoint, this
 * maps it to records and resolves only once the broker acknowledged every one, and only then
 * does the runtime move the checkpoint (compare-and-set). A failure anywhere leaves the
 * checkpoint where it was and the batch is published again: at least once, never a gap.
 */
export class KafkaRelay implements Reactor {
  readonly name: string;
  readonly filter = {};
  /** One batch at a time, in log order: a stream's events are never in flight twice at once. */
  readonly concurrency = 1;

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

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    await this.publisher.publish(await this.registry.map(events, this.topics));
  }

  close(): Promise<void> {
    return this.publisher.close();
  }
}
