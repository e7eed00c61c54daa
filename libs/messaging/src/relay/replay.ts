import { decodePosition, encodePosition, EventStore, hasSealedForms, LogPosition, RecordedEvent } from '@notify/eventstore';
import { KafkaHeaders } from '../envelopes/headers';
import { DomainEventMapper } from './domain-event.mapper';
import { MessageEventMapper } from '../mappers/message-event.mapper';
import { WorkflowRunEventMapper } from '../mappers/workflow-run-event.mapper';
import { ErasureTombstoneMapper } from '../mappers/erasure-tombstone.mapper';
import { KafkaTopics } from '../topics';
import { RecordPublisher } from './kafka-publisher';
import { RelayMapper, RelayMapperRegistry } from './relay-mapper';

/** What the relay publishes for the log, built on a store (the worker's relay and a replay to Kafka both use it). */
export function logRelayMappers(store: EventStore, options: { erasureTombstones?: boolean } = {}): RelayMapper[] {
  const mappers: RelayMapper[] = [
    new DomainEventMapper(hasSealedForms(store) ? store : undefined),
    new MessageEventMapper(store),
    new WorkflowRunEventMapper(store),
  ];
  if (options.erasureTombstones) mappers.push(new ErasureTombstoneMapper());
  return mappers;
}

export interface ReplayRange {
  /** First event to re-publish: its log `position` (inclusive). */
  from: LogPosition;
  /** Last event to re-publish (inclusive). */
  to: LogPosition;
  /** At most this many events in this call; the answer says where to go on. */
  limit: number;
  replayId: string;
  /** Only the events of the window this accepts (a global-position or time range, ADR 0198). */
  match?: (event: RecordedEvent) => boolean;
}

export interface ReplayOutcome {
  events: number;
  records: number;
  /** Position of the last event re-published, or null when the range held none. */
  last: LogPosition | null;
  /** Where the next call starts (`from`) when the range is not done, else null. */
  next: LogPosition | null;
}

const PAGE = 500;

/** The position just before `position`: positions are pairs of integers, so nothing lies between. */
function justBefore(position: LogPosition): LogPosition {
  const { major, minor } = decodePosition(position);
  return minor > 0n ? encodePosition(major, minor - 1n) : major > 0n ? encodePosition(major - 1n, (1n << 63n) - 1n) : '';
}

/**
 * Re-publishes the events of a range of the log to the stream topics (ADR 0154): the relay's own
 * mappers, so the same topics, keys, values and headers, plus `replayed` and `replay-id`. Each
 * page resolves once the broker acknowledged it. It leaves the relay's checkpoint alone.
 */
export async function replayLogToKafka(
  store: EventStore,
  registry: RelayMapperRegistry,
  topics: KafkaTopics,
  publisher: RecordPublisher,
  range: ReplayRange,
): Promise<ReplayOutcome> {
  let after = justBefore(range.from);
  let events = 0;
  let records = 0;
  let last: LogPosition | null = null;
  let scanned: LogPosition | null = null;
  while (events < range.limit) {
    const page = await store.readAll({ after, maxCount: Math.min(PAGE, range.limit - events) });
    const inWindow = page.events.filter((e) => e.position <= range.to);
    if (inWindow.length) scanned = inWindow[inWindow.length - 1].position;
    const batch = range.match ? inWindow.filter(range.match) : inWindow;
    if (batch.length) {
      const mapped = await registry.map(batch, topics);
      for (const r of mapped) r.headers = { ...r.headers, [KafkaHeaders.replayed]: 'true', [KafkaHeaders.replayId]: range.replayId };
      await publisher.publish(mapped);
      events += batch.length;
      records += mapped.length;
      last = batch[batch.length - 1].position;
    }
    const done = inWindow.length < page.events.length || page.events.length === 0 || page.scannedTo >= range.to;
    if (done) return { events, records, last, next: null };
    after = page.events[page.events.length - 1].position;
  }
  return { events, records, last, next: scanned !== null && scanned < range.to ? await nextAfter(store, scanned, range.to) : null };
}

/** The position of the first event after `position` up to `to`, or null when there is none. */
async function nextAfter(store: EventStore, position: LogPosition, to: LogPosition): Promise<LogPosition | null> {
  const page = await store.readAll({ after: position, maxCount: 1 });
  const next = page.events[0];
  return next && next.position <= to ? next.position : null;
}
