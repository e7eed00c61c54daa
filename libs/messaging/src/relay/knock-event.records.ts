import type { RecordedEvent } from '@notify/eventstore';
import { recordHeaders } from '../envelopes/headers';
import { MESSAGE_EVENT_ENVELOPE_V1, MessageEventEnvelopeV1 } from '../envelopes/message-event.v1';
import { recipientKey } from '../envelopes/recipient';
import { WORKFLOW_RUN_EVENT_ENVELOPE_V1, WorkflowRunEventEnvelopeV1 } from '../envelopes/workflow-run-event.v1';
import { OutboundRecord } from './outbound-record';

/*
 * Builders for the mappers the workflow engine will register (MessageEvents and workflow run
 * events). They validate the envelope, so a mapper cannot publish a shape the committed JSON
 * Schema does not describe, and derive key and headers the same way for both topics.
 */

/** A `message.*` record derived from the domain event `source` (its id is the record's event id). */
export function messageEventRecord(source: RecordedEvent, topic: string, envelope: MessageEventEnvelopeV1): OutboundRecord {
  const value = MessageEventEnvelopeV1.parse(envelope);
  return {
    topic,
    key: recipientKey(value.environment, value.data.recipient),
    value,
    headers: recordHeaders({
      eventId: source.id,
      eventType: value.type,
      schemaVersion: 1,
      environment: value.environment,
      envelope: MESSAGE_EVENT_ENVELOPE_V1,
      trace: source.metadata,
    }),
  };
}

/** A `workflow_recipient_run.*` record derived from the domain event `source`. */
export function workflowRunEventRecord(source: RecordedEvent, topic: string, envelope: WorkflowRunEventEnvelopeV1): OutboundRecord {
  const value = WorkflowRunEventEnvelopeV1.parse(envelope);
  return {
    topic,
    key: recipientKey(value.environment, value.data.recipient),
    value,
    headers: recordHeaders({
      eventId: source.id,
      eventType: value.type,
      schemaVersion: 1,
      environment: value.environment,
      envelope: WORKFLOW_RUN_EVENT_ENVELOPE_V1,
      trace: source.metadata,
    }),
  };
}
