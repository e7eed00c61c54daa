import type { RecordedEvent } from '@notify/eventstore';
import { KafkaTopics } from '../topics';
import { OutboundRecord } from './outbound-record';

/**
 * Turns one logged event into the records published for it (none, one or several). The relay
 * runs every mapper that matches an event, in registration order, and publishes the records of
 * one batch in log order.
 *
 * A mapper must be a pure function of the log up to the event (for example fold the message's
 * stream up to `event.revision`, never read a live read model): after a crash a batch is mapped
 * and published again, and the copies must be identical so consumers can drop them by event id.
 */
export interface RelayMapper {
  /** Unique among registered mappers; shows in logs. */
  readonly name: string;
  /** Event types this mapper handles, or '*' for every event. */
  readonly eventTypes: readonly string[] | '*';
  /** Called once per batch with the batch's events this mapper handles, before any map (to read what they need at once). */
  prepare?(events: readonly RecordedEvent[]): Promise<void>;
  map(event: RecordedEvent, topics: KafkaTopics): readonly OutboundRecord[] | Promise<readonly OutboundRecord[]>;
}

/** The mappers the relay runs, indexed by event type. */
export class RelayMapperRegistry {
  private readonly wildcard: RelayMapper[] = [];
  private readonly byType = new Map<string, RelayMapper[]>();

  constructor(readonly mappers: readonly RelayMapper[]) {
    const names = new Set<string>();
    for (const mapper of mappers) {
      if (names.has(mapper.name)) throw new Error(`Relay mapper ${mapper.name} registered twice`);
      names.add(mapper.name);
      if (mapper.eventTypes === '*') this.wildcard.push(mapper);
      else for (const type of mapper.eventTypes) this.byType.set(type, [...(this.byType.get(type) ?? []), mapper]);
    }
  }

  /** Mappers for one event type, in registration order. */
  mappersFor(type: string): RelayMapper[] {
    const specific = this.byType.get(type) ?? [];
    return this.mappers.filter((m) => this.wildcard.includes(m) || specific.includes(m));
  }

  /** Every record for these events, in log order (an event's records in mapper order). */
  async map(events: readonly RecordedEvent[], topics: KafkaTopics): Promise<OutboundRecord[]> {
    const records: OutboundRecord[] = [];
    for (const mapper of this.mappers) {
      if (!mapper.prepare) continue;
      const handled = events.filter((e) => this.mappersFor(e.type).includes(mapper));
      if (handled.length) await mapper.prepare(handled);
    }
    for (const event of events) {
      for (const mapper of this.mappersFor(event.type)) records.push(...(await mapper.map(event, topics)));
    }
    return records;
  }
}
