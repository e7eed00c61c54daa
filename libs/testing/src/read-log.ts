import type { EventStore, ReadAllOptions, RecordedEvent } from '@notify/eventstore';
import { waitFor } from './wait';

/**
 * Every event of the log (matching `filter`) up to the newest one committed when called, read
 * page by page the way a reader reads. readAll serves only transactions below its visible bound,
 * and on Postgres that bound can sit low for a moment when a transaction of another database on
 * the same server has just ended (see es_visible_bound): one read right after a test's writes
 * may stop short of them. This waits for the reads to reach what was written, not for a time.
 */
export async function readAllWritten(
  store: Pick<EventStore, 'readAll' | 'newestPosition'>,
  options: Pick<ReadAllOptions, 'after' | 'filter'> = {},
): Promise<RecordedEvent[]> {
  const newest = await store.newestPosition();
  const events: RecordedEvent[] = [];
  let after = options.after ?? '';
  await waitFor(async () => {
    for (;;) {
      const page = await store.readAll({ after, filter: options.filter, maxCount: 10_000 });
      events.push(...page.events);
      if (page.scannedTo >= newest) return true;
      if (page.scannedTo === after) return false;
      after = page.scannedTo;
    }
  }, `readAll to reach the newest event (${newest})`);
  return events;
}
