import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's metrics registry (prom-client). Everything measured in this process registers
 * here once: HTTP requests, provider calls, Kafka publishes, and Node's own process metrics. What
 * must be the same whichever process does the work (runs, messages and steps by status,
 * projection and relay lag) is read from the database at scrape time instead (see `scrapeGauges`),
 * so every api instance answers the same truth (ADR 0054, ADR 0129).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'notify_' });

/** Seconds; from a cache hit to a slow provider. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new Counter({
  name: 'notify_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'notify_http_request_duration_seconds',
  help: 'Time from receiving an HTTP request to the end of its response, by method, route template and status class.',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const providerCalls = new Histogram({
  name: 'notify_provider_call_duration_seconds',
  help: 'Delivery provider calls made by this process, by provider, channel type and outcome.',
  labelNames: ['provider', 'channel_type', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const kafkaPublished = new Counter({
  name: 'notify_kafka_records_published_total',
  help: 'Records this process published to Kafka (acknowledged by every in-sync replica), by topic.',
  labelNames: ['topic'] as const,
  registers: [registry],
});

export const kafkaPublishFailures = new Counter({
  name: 'notify_kafka_publish_failures_total',
  help: 'Kafka batches this process failed to publish (they are retried from the relay checkpoint).',
  registers: [registry],
});

export const triggerRuns = new Counter({
  name: 'notify_trigger_runs_total',
  help: 'Triggers whose runs this process recorded, by who executes them: the trigger itself, or the worker and why (ADR 0258).',
  labelNames: ['executed_by'] as const,
  registers: [registry],
});

/** Records one answered HTTP request. `route` is the route template, never the raw URL (bounded label values). */
export function observeHttpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  const template = route ?? 'unmatched';
  httpRequests.inc({ method, route: template, status: String(status) });
  httpRequestDuration.observe({ method, route: template, status_class: `${Math.floor(status / 100)}xx` }, seconds);
}

/** A value read at scrape time, with its labels. */
export interface ScrapedSample {
  labels?: Record<string, string>;
  value: number;
}

export interface ScrapedGauge {
  name: string;
  /** A counter read from the database (monotonic, e.g. events handled); a gauge otherwise. */
  type?: 'gauge' | 'counter';
  help: string;
  labelNames?: readonly string[];
  samples: readonly ScrapedSample[];
}

/**
 * The exposition text of this process's registry together with gauges read at scrape time
 * (from the database), in the Prometheus text format.
 */
export async function exposition(scraped: readonly ScrapedGauge[] = []): Promise<string> {
  const scrape = new Registry();
  for (const family of scraped) {
    const options = { name: family.name, help: family.help, labelNames: [...(family.labelNames ?? [])], registers: [scrape] };
    if (family.type === 'counter') {
      const counter = new Counter(options);
      for (const sample of family.samples) counter.inc(sample.labels ?? {}, sample.value);
    } else {
      const gauge = new Gauge(options);
      for (const sample of family.samples) gauge.set(sample.labels ?? {}, sample.value);
    }
  }
  return Registry.merge([registry, scrape]).metrics();
}

export const EXPOSITION_CONTENT_TYPE = registry.contentType;
