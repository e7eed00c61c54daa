import { Controller, Header, Inject } from '@nestjs/common';
import { metricsRoute } from '@notify/contracts';
import { Database } from '@notify/database';
import { Endpoint } from '@notify/http';
import { EXPOSITION_CONTENT_TYPE, exposition, ScrapedGauge } from '@notify/observability';
import { DATABASE } from '@notify/platform';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { StreamStatus } from './stream-status';

type CountRow = { environment: string; status: string; kind?: string | null; count: string };

/**
 * /metrics: this process's prom-client registry (HTTP requests, provider calls, Kafka
 * publishes, Node process metrics) and gauges read from the shared database at scrape time
 * (runs, steps and messages by status; projection and relay lag), so every api instance reports
 * the same truth whichever worker does the work (ADR 0054, ADR 0129).
 */
@Controller()
export class MetricsController {
  constructor(
    private readonly stream: StreamStatus,
    private readonly projections: ProjectionRuntime,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Endpoint(metricsRoute)
  @Header('content-type', EXPOSITION_CONTENT_TYPE)
  async metrics(): Promise<string> {
    return exposition(await this.scraped());
  }

  private async scraped(): Promise<ScrapedGauge[]> {
    const query = (sql: string) => this.database.dataSource.query<CountRow[]>(sql);
    const [runs, steps, messages, statuses, lag] = await Promise.all([
      query('SELECT environment, status, count(*) AS count FROM rm_workflow_recipient_runs GROUP BY environment, status'),
      query(
        'SELECT environment, status, step_type AS kind, count(*) AS count FROM rm_workflow_recipient_run_events WHERE step_type IS NOT NULL GROUP BY environment, status, step_type',
      ),
      query(
        'SELECT environment, status, channel_type AS kind, count(*) AS count FROM rm_messages GROUP BY environment, status, channel_type',
      ),
      this.projections.status(),
      this.projections.lag(),
    ]);
    const families: ScrapedGauge[] = [
      {
        name: 'notify_runs',
        help: 'Workflow recipient runs in the read model, by environment and status.',
        labelNames: ['environment', 'status'],
        samples: runs.map((r) => ({ labels: { environment: r.environment, status: r.status }, value: Number(r.count) })),
      },
      {
        name: 'notify_step_events',
        help: 'Step events recorded on workflow recipient runs, by environment, step type and status.',
        labelNames: ['environment', 'step_type', 'status'],
        samples: steps.map((r) => ({
          labels: { environment: r.environment, step_type: r.kind ?? '', status: r.status },
          value: Number(r.count),
        })),
      },
      {
        name: 'notify_messages',
        help: 'Messages in the read model, by environment, channel type and status.',
        labelNames: ['environment', 'channel_type', 'status'],
        samples: messages.map((r) => ({
          labels: { environment: r.environment, channel_type: r.kind ?? '', status: r.status },
          value: Number(r.count),
        })),
      },
      {
        name: 'notify_projection_lag_events',
        help: 'Events in the log the slowest projection has not applied yet.',
        samples: [{ value: lag }],
      },
      {
        name: 'notify_projection_events_applied',
        help: 'Events each projection has applied since its last rebuild.',
        labelNames: ['projection'],
        samples: statuses.map((s) => ({ labels: { projection: s.name }, value: s.eventsApplied })),
      },
    ];
    if (this.stream.configured) {
      const [kafka, relay] = await Promise.all([this.stream.kafka(), this.stream.relayLag()]);
      families.push({
        name: 'notify_kafka_up',
        help: 'Whether a Kafka broker answered a metadata request during this scrape.',
        samples: [{ value: kafka.status === 'up' ? 1 : 0 }],
      });
      if (relay) {
        const labels = { relay: relay.name };
        families.push(
          {
            name: 'notify_kafka_relay_lag_events',
            help: 'Events in the log not yet acknowledged by Kafka.',
            labelNames: ['relay'],
            samples: [{ labels, value: relay.events }],
          },
          {
            name: 'notify_kafka_relay_lag_seconds',
            help: 'Age in seconds of the oldest event not yet acknowledged by Kafka (0 when caught up).',
            labelNames: ['relay'],
            samples: [{ labels, value: relay.seconds }],
          },
          {
            name: 'notify_kafka_relay_events_published_total',
            type: 'counter',
            help: 'Events the relay has published and checkpointed.',
            labelNames: ['relay'],
            samples: [{ labels, value: relay.handled }],
          },
        );
      }
    }
    return families;
  }
}
