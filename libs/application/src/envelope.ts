import { schemaVersionOf } from '@notify/contracts';
import { EventToAppend } from '@notify/eventstore';
import { causedTrace } from '@notify/observability';
import type { CommandMetadata } from './handle-command';

/**
 * An event ready to append: its id, type and data, and the metadata it was decided under with
 * the schema version of its type. The one place envelopes are built (ADR 0164); the id is the
 * caller's, so deterministic ids stay exactly as they are computed.
 */
export function eventEnvelope<D>(type: string, data: D, id: string, metadata: CommandMetadata): EventToAppend<D> {
  return { id, type, data, metadata: { ...metadata, schema_version: schemaVersionOf(type) } };
}

export interface EngineEventOptions {
  id: string;
  environment: string | null;
  correlationId?: string;
  causationId?: string;
  /** A system component: `system:engine`, `system:timers`, ... */
  actor: string;
  /** Metadata of the event this one follows: its trace context is carried when no span is active. */
  cause?: { traceparent?: unknown; tracestate?: unknown } | null;
}

/** The metadata of work a system component does because of an earlier event, with the trace context that led to it. */
export function engineMetadata(options: Omit<EngineEventOptions, 'id'>): CommandMetadata {
  const { environment, correlationId, causationId, actor, cause } = options;
  return {
    environment,
    ...(correlationId !== undefined ? { correlation_id: correlationId } : {}),
    ...(causationId !== undefined ? { causation_id: causationId } : {}),
    actor,
    ...causedTrace(cause),
  };
}

/** An event a system component appends (engine, timers, delivery), enveloped with its metadata and trace context. */
export function engineEvent<D>(type: string, data: D, options: EngineEventOptions): EventToAppend<D> {
  return eventEnvelope(type, data, options.id, engineMetadata(options));
}
