import type { RecordedEvent } from '@notify/eventstore';
import { z } from 'zod';

export const DOMAIN_EVENT_ENVELOPE_V1 = 'notify.domain-event.v1';

export const DomainEventMetadataV1 = z
  .object({
    environment: z.string().nullable().describe('Environment slug; null for account-level events'),
    schema_version: z.number().int().min(1),
    correlation_id: z.string().optional(),
    causation_id: z.string().optional(),
    request_id: z.string().optional(),
    actor: z.string().optional().describe('Api key id, service token id, or a system component name'),
    traceparent: z.string().optional().describe('W3C Trace Context of the work that appended the event, when it was traced'),
    tracestate: z.string().optional(),
  })
  .loose();

/**
 * Value of every record on `<prefix>events.v1`: one domain event exactly as the log holds it.
 * Key: the stream id. Additive changes only within v1; see docs/kafka/README.md.
 */
export const DomainEventEnvelopeV1 = z
  .object({
    id: z.string().describe('Event id (uuid); a redelivered record repeats it'),
    type: z.string().describe('Past-tense event type, e.g. UserIdentified'),
    stream_id: z.string().describe('The aggregate stream, e.g. user-<env>-<id>; also the record key'),
    revision: z
      .number()
      .int()
      .min(0)
      .describe('0-based position inside the stream: consecutive per key, use it to spot gaps and duplicates'),
    global_position: z
      .string()
      .regex(/^[0-9]+$/)
      .describe('Position in the whole log as a decimal string (may exceed 2^53); unique, not dense'),
    schema_version: z.number().int().min(1).describe('Version of the data schema: docs/kafka/schemas/events/<type>.v<schema_version>.json'),
    environment: z.string().nullable(),
    created_at: z.iso.datetime({ offset: true }),
    data: z.unknown().describe('The event data; its schema is given by type and schema_version'),
    metadata: DomainEventMetadataV1,
  })
  .loose()
  .meta({
    title: 'DomainEventEnvelopeV1',
    description: 'A domain event from the notify event log (topic <prefix>events.v1, key = stream_id)',
  });

export type DomainEventEnvelopeV1 = z.infer<typeof DomainEventEnvelopeV1>;

export function domainEventEnvelopeV1(event: RecordedEvent): DomainEventEnvelopeV1 {
  return {
    id: event.id,
    type: event.type,
    stream_id: event.streamId,
    revision: event.revision,
    global_position: event.globalPosition.toString(),
    schema_version: event.metadata.schema_version,
    environment: event.metadata.environment ?? null,
    created_at: event.createdAt.toISOString(),
    data: event.data,
    metadata: event.metadata,
  };
}
