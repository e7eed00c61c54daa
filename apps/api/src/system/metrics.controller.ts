import { Controller, Header } from '@nestjs/common';
import { metricsRoute } from '@notify/contracts';
import { Endpoint } from '@notify/http';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { MetricFamily, renderMetrics } from './prometheus';
import { StreamStatus } from './stream-status';

/**
 * Gauges computed at scrape time from the shared checkpoints (no in-process registry): every
 * api instance reports the same truth whichever worker does the work (ADR 0054).
 */
@Controller()
export class MetricsController {
  constructor(
    private readonly stream: StreamStatus,
    private readonly projections: ProjectionRuntime,
  ) {}

  @Endpoint(metricsRoute)
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async metrics(): Promise<string> {
    const families: MetricFamily[] = [
      { name: 'notify_projection_lag_events', help: 'Events in the log the slowest projection has not applied yet.', type: 'gauge', samples: [{ value: await this.projections.lag() }] },
    ];
    if (this.stream.configured) {
      const [kafka, lag] = await Promise.all([this.stream.kafka(), this.stream.relayLag()]);
      families.push({ name: 'notify_kafka_up', help: 'Whether a Kafka broker answered a metadata request during this scrape.', type: 'gauge', samples: [{ value: kafka.status === 'up' ? 1 : 0 }] });
      if (lag) {
        const labels = { relay: lag.name };
        families.push(
          { name: 'notify_kafka_relay_lag_events', help: 'Events in the log not yet acknowledged by Kafka.', type: 'gauge', samples: [{ labels, value: lag.events }] },
          { name: 'notify_kafka_relay_lag_seconds', help: 'Age in seconds of the oldest event not yet acknowledged by Kafka (0 when caught up).', type: 'gauge', samples: [{ labels, value: lag.seconds }] },
          { name: 'notify_kafka_relay_events_published_total', help: 'Events the relay has published and checkpointed.', type: 'counter', samples: [{ labels, value: lag.handled }] },
        );
      }
    }
    return renderMetrics(families);
  }
}
