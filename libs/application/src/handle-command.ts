import { schemaVersionOf } from '@notify/contracts';
import { Decider, DomainEvent, fold } from '@notify/domain';
import { AppendResult, EventMetadata, EventStore, RecordedEvent, WrongExpectedRevisionError } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';

export interface CommandMetadata {
  environment: string | null;
  correlation_id?: string;
  causation_id?: string;
  request_id?: string;
  actor?: string;
}

export interface CommandOutcome<State, Event extends DomainEvent> {
  /** The events this call appended; empty when the decision had already been made. */
  events: Event[];
  /** State after the decision. */
  state: State;
  append?: AppendResult;
  streamId: string;
}

export interface HandleCommandOptions<Event> {
  /** Deterministic ids where a retry of the same request could append the same fact again. */
  eventId?: (event: Event, index: number) => string;
  maxAttempts?: number;
}

/**
 * Load the aggregate's stream, fold it, decide, append with the revision that was read.
 * A concurrent writer makes the append fail on the revision; then the whole cycle is redone on
 * the new state, so the decision is always made on the latest facts.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: CommandMetadata,
  options: HandleCommandOptions<Event> = {},
): Promise<CommandOutcome<State, Event>> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(streamId);
    const state = fold(decider, history.map(toDomainEvent) as Event[]);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, streamId };
    const revision = history.length ? history[history.length - 1].revision : undefined;
    try {
      const append = await store.append(
        streamId,
        events.map((event, index) => ({
          id: options.eventId?.(event, index) ?? randomUUID(),
          type: event.type,
          data: event.data,
          metadata: { ...metadata, schema_version: schemaVersionOf(event.type) } satisfies EventMetadata,
        })),
        { expectedRevision: revision ?? 'no_stream' },
      );
      const after = events.reduce((s, e) => decider.evolve(s, e), state);
      return { events, state: after, append, streamId };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError && attempt < maxAttempts) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
        continue;
      }
      throw error;
    }
  }
}

export function toDomainEvent(recorded: RecordedEvent): DomainEvent {
  return { type: recorded.type, data: recorded.data };
}
