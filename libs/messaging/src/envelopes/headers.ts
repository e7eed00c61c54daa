/**
 * Kafka record headers set on every record the service publishes. Values are UTF-8 strings.
 * Consumers deduplicate by `event-id` and route on `event-type`/`environment` without parsing
 * the value.
 */
export const KafkaHeaders = {
  /** Id of the domain event the record comes from (uuid). Duplicates repeat it. */
  eventId: 'event-id',
  /** Domain event type (`UserIdentified`) or MessageEvent type (`message.sent`). */
  eventType: 'event-type',
  /** Domain events: the data's schema version. Message/workflow run events: the envelope's version. */
  schemaVersion: 'schema-version',
  /** Environment slug; absent for account-level events (service tokens). */
  environment: 'environment',
  /** Which envelope the value is: `notify.domain-event.v1`, ... */
  envelope: 'envelope',
  contentType: 'content-type',
  /** W3C Trace Context of the work that produced the event, when it was traced (ADR 0160). */
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  /** Set on records re-published by a replay (`true`), never by the relay: consumers may treat them as repeats (ADR 0154). */
  replayed: 'replayed',
  /** The replay that re-published the record (uuid): one id per replay request. */
  replayId: 'replay-id',
} as const;

export type RecordHeaders = Record<string, string>;

export function recordHeaders(fields: {
  eventId: string;
  eventType: string;
  schemaVersion: number;
  environment: string | null | undefined;
  envelope: string;
  /** The source event's metadata: its trace context, when it carries one, goes on the record. */
  trace?: { traceparent?: unknown; tracestate?: unknown };
}): RecordHeaders {
  const headers: RecordHeaders = {
    [KafkaHeaders.eventId]: fields.eventId,
    [KafkaHeaders.eventType]: fields.eventType,
    [KafkaHeaders.schemaVersion]: String(fields.schemaVersion),
    [KafkaHeaders.envelope]: fields.envelope,
    [KafkaHeaders.contentType]: 'application/json',
  };
  if (fields.environment) headers[KafkaHeaders.environment] = fields.environment;
  if (typeof fields.trace?.traceparent === 'string') headers[KafkaHeaders.traceparent] = fields.trace.traceparent;
  if (typeof fields.trace?.traceparent === 'string' && typeof fields.trace.tracestate === 'string')
    headers[KafkaHeaders.tracestate] = fields.trace.tracestate;
  return headers;
}
