import { Inject, Injectable, Type } from '@nestjs/common';
import { EventStore } from '@notify/eventstore';
import { DomainEventMapper, MessageEventMapper, RelayMapper, WorkflowRunEventMapper } from '@notify/messaging';
import { EVENT_STORE } from '@notify/platform';

export const RELAY_MAPPERS = Symbol('RELAY_MAPPERS');

/** MessageEvents, folded from each message's stream in the log. */
@Injectable()
export class LogMessageEventMapper extends MessageEventMapper {
  constructor(@Inject(EVENT_STORE) store: EventStore) {
    super(store);
  }
}

/** Workflow recipient run events, folded from each run's stream in the log. */
@Injectable()
export class LogWorkflowRunEventMapper extends WorkflowRunEventMapper {
  constructor(@Inject(EVENT_STORE) store: EventStore) {
    super(store);
  }
}

/**
 * What the Kafka relay publishes for each logged event: every domain event to
 * `<prefix>events.v1`, MessageEvents to `<prefix>message-events.v1` and workflow run events to
 * `<prefix>workflow-run-events.v1` (both keyed by recipient).
 */
export const relayMappers: Type<RelayMapper>[] = [DomainEventMapper, LogMessageEventMapper, LogWorkflowRunEventMapper];
