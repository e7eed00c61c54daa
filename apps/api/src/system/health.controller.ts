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

type Backend = { status: 'up' | 'down' | 'disabled'; detail?: string };

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
    };
    const ready = Object.values(backends).every((b) => b.status !== 'down');
    let projections: RouteOutput<typeof readyzRoute>['projections'];
    let lag: number | undefined;
    if (backends.database.status === 'up') {
      projections = (await this.runtime.status()).map((s) => ({ name: s.name, position: s.position, events_applied: s.eventsApplied, ...(s.lastError ? { last_error: s.lastError } : {}) }));
      lag = await this.runtime.lag().catch(() => undefined);
    }
    if (!ready) void reply.status(503);
    return { status: ready ? 'ready' : 'not_ready', backends, projections, projection_lag: lag };
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
