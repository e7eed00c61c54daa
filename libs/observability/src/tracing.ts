import { Context, context, propagation, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * OpenTelemetry traces (ADR 0160). The trace context travels with the work: from the HTTP
 * request into the metadata of every event it appends (`traceparent`, W3C Trace Context), from
 * there into the worker's run steps, deliveries and provider calls, and onto the Kafka records'
 * headers, so one trace shows a trigger through to each message and its downstream consumers.
 * Without an exporter configured the API calls are no-ops and cost next to nothing.
 */
export const tracer = trace.getTracer('notify');

export interface TracingOptions {
  serviceName: string;
  serviceVersion?: string;
  /** OTLP/HTTP traces endpoint, e.g. http://collector:4318/v1/traces. */
  endpoint?: string;
  /** Fraction of new traces kept (a request carrying a sampled traceparent is always kept). */
  sampleRatio?: number;
  /** Tests pass an in-memory exporter (spans exported one at a time, synchronously). */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** Exports what is buffered and unregisters the provider. */
  shutdown(): Promise<void>;
}

let active: NodeTracerProvider | undefined;

/** Registers the process's tracer provider; undefined when neither an endpoint nor an exporter is given. */
export function startTracing(options: TracingOptions): Tracing | undefined {
  if (!options.endpoint && !options.exporter) return undefined;
  if (active) throw new Error('tracing is already started in this process');
  // The SDK is loaded only when traces are exported: most starts never need its modules.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { BatchSpanProcessor, ParentBasedSampler, SimpleSpanProcessor, TraceIdRatioBasedSampler } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } =
    require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const processor = options.exporter
    ? new SimpleSpanProcessor(options.exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: options.endpoint }));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio ?? 1) }),
    spanProcessors: [processor],
  });
  provider.register();
  active = provider;
  return {
    async shutdown() {
      if (active !== provider) return;
      active = undefined;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The W3C trace context fields carried in event metadata and message headers. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** The trace context of `ctx` (the active one by default) as carrier fields; empty when nothing is traced. */
export function traceCarrier(ctx: Context = context.active()): TraceCarrier {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent ? { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) } : {};
}

/** The trace context of a span as carrier fields. */
export function spanCarrier(span: Span): TraceCarrier {
  return traceCarrier(trace.setSpan(context.active(), span));
}

/** The context a carrier (event metadata, headers) names; the root context when it names none. */
export function contextFrom(carrier: { traceparent?: unknown; tracestate?: unknown } | undefined | null): Context {
  const fields: Record<string, string> = {};
  if (typeof carrier?.traceparent === 'string') fields.traceparent = carrier.traceparent;
  if (typeof carrier?.tracestate === 'string') fields.tracestate = carrier.tracestate;
  return propagation.extract(context.active(), fields);
}

/**
 * The trace fields for events appended as a consequence of `cause`: the active span when there
 * is one (a step or delivery being traced), otherwise whatever the causing event carried.
 */
export function causedTrace(cause?: { traceparent?: unknown; tracestate?: unknown } | null): TraceCarrier {
  const current = traceCarrier();
  if (current.traceparent) return current;
  return typeof cause?.traceparent === 'string'
    ? { traceparent: cause.traceparent, ...(typeof cause.tracestate === 'string' ? { tracestate: cause.tracestate } : {}) }
    : {};
}

/**
 * Runs `work` in a span that is a child of `parent` (a carrier or the active context), ending it
 * when the work settles and recording a thrown error.
 */
export async function inSpan<T>(
  name: string,
  options: {
    parent?: { traceparent?: unknown; tracestate?: unknown } | null;
    kind?: SpanKind;
    attributes?: Record<string, string | number | boolean | undefined>;
    /** Other traces this work belongs to (a batch publish of records from many requests). */
    links?: readonly { traceparent?: unknown; tracestate?: unknown }[];
  },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ? contextFrom(options.parent) : context.active();
  const attributes = Object.fromEntries(Object.entries(options.attributes ?? {}).filter(([, v]) => v !== undefined)) as Record<
    string,
    string | number | boolean
  >;
  const links = (options.links ?? []).flatMap((carrier) => {
    const linked = trace.getSpanContext(contextFrom(carrier));
    return linked ? [{ context: linked }] : [];
  });
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes, links }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind, SpanStatusCode };
export type { Span };
