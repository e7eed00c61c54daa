import { Type } from '@nestjs/common';
import { DomainEventMapper, RelayMapper } from '@notify/messaging';

export const RELAY_MAPPERS = Symbol('RELAY_MAPPERS');

/**
 * What the Kafka relay publishes for each logged event. Every domain event goes to
 * `<prefix>events.v1`; the workflow engine adds its mappers here: MessageEvents
 * (messageEventRecord, `<prefix>message-events.v1`) and workflow run events
 * (workflowRunEventRecord, `<prefix>workflow-run-events.v1`), both keyed by recipient.
 */
export const relayMappers: Type<RelayMapper>[] = [DomainEventMapper];
