import { contextFrom, Span, SpanKind, SpanStatusCode, spanCarrier, TraceCarrier, tracer } from '@notify/observability';
import { FastifyRequest } from 'fastify';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * Opens the request's server span, a child of the caller's `traceparent` header when it sends
 * one (W3C Trace Context). Its context reaches the log through the request context (ADR 0160).
 */
export function startRequestSpan(request: FastifyRequest): void {
  const span = tracer.startSpan(
    request.method,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0], 'http.request.id': String(request.id) },
    },
    contextFrom(request.headers as { traceparent?: unknown; tracestate?: unknown }),
  );
  spans.set(request, span);
}

/** Names the span after the route template once it is known, records the status, ends it. */
export function endRequestSpan(request: FastifyRequest, status: number): void {
  const span = spans.get(request);
  if (!span) return;
  spans.delete(request);
  const route = request.routeOptions.url;
  if (route) {
    span.updateName(`${request.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  if (request.ctx?.environment) span.setAttribute('notify.environment', request.ctx.environment);
  span.end();
}

/** The trace context of the request's span, for the metadata of the events it appends. */
export function requestTrace(request: FastifyRequest): TraceCarrier {
  const span = spans.get(request);
  return span ? spanCarrier(span) : {};
}
