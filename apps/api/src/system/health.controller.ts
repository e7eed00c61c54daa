import { Controller, Inject, Res } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { healthzRoute, readyzRoute, RouteOutput } from '@notify/contracts';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { Endpoint } from '@notify/http';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { FastifyReply } from 'fastify';
import Redis from 'ioredis';
import { StreamStatus } from './stream-status';

type Backend = { status: 'up' | 'down' | 'disabled'; detail?: string };

/**
 * Reported but not required for readiness: while Kafka is down the api still takes writes (the
 * log is the durability boundary) and the relay catches up later (ADR 0054).
 */
const NOT_GATING = new Set(['kafka']);

async function probe(check: () => Promise<unknown>): Promise<Backend> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 2 s')), 2000))]);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', detail: (error as Error).message };
  }
}

@Controller()
export class HealthController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runtime: ProjectionRuntime,
    private readonly stream: StreamStatus,
  ) {}

  @Endpoint(healthzRoute)
  healthz(): RouteOutput<typeof healthzRoute> {
    return { status: 'ok' };
  }

  @Endpoint(readyzRoute)
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<RouteOutput<typeof readyzRoute>> {
    const backends: Record<string, Backend> = {
      database: await probe(() => this.database.dataSource.query('SELECT 1')),
      eventstore: await probe(() => this.store.headPosition()),
      redis: this.config.REDIS_URL ? await probe(() => this.pingRedis(this.config.REDIS_URL!)) : { status: 'disabled' },
      kafka: await this.stream.kafka(),
    };
    const ready = Object.entries(backends).every(([name, b]) => b.status !== 'down' || NOT_GATING.has(name));
    let projections: RouteOutput<typeof readyzRoute>['projections'];
    let lag: number | undefined;
    let relay: RouteOutput<typeof readyzRoute>['kafka_relay'];
    if (backends.database.status === 'up') {
      projections = (await this.runtime.status()).map((s) => ({
        name: s.name,
        position: s.position,
        events_applied: s.eventsApplied,
        ...(s.lastError ? { last_error: s.lastError } : {}),
      }));
      lag = await this.runtime.lag().catch(() => undefined);
      const relayLag = await this.stream.relayLag().catch(() => undefined);
      if (relayLag)
        relay = {
          name: relayLag.name,
          position: relayLag.position,
          lag_events: relayLag.events,
          lag_seconds: relayLag.seconds,
          events_published: relayLag.handled,
        };
    }
    if (!ready) void reply.status(503);
    return { status: ready ? 'ready' : 'not_ready', backends, projections, projection_lag: lag, kafka_relay: relay };
  }

  private async pingRedis(url: string) {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500 });
    try {
      await redis.connect();
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  }
}
