import type { RecordedEvent } from '@notify/eventstore';
import type { Reactor } from '@notify/projection-runtime';
import { BulkOperationProcessor } from './bulk-operations';

/**
 * Runs bulk operations in the worker. Delivery is at least once: a crash replays the
 * BulkOperationCreated, and the processor resumes from the progress the stream records.
 */
export class BulkOperationReactor implements Reactor {
  readonly name = 'bulk-operations';
  readonly filter = { eventTypes: ['BulkOperationCreated'] };
  /** Operations (streams) worked on at once. */
  readonly concurrency = 2;

  constructor(private readonly processor: BulkOperationProcessor) {}

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    for (const event of events) await this.processor.process(event);
  }
}
