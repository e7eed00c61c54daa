import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** Updates each entity may take per second through batch and bulk endpoints. */
export const ENTITY_UPDATES_PER_SECOND = 1;

/**
 * The batch deduplication limit: within any second, one update per entity through batch and
 * bulk endpoints. The first item to claim an entity wins; later ones (in the same request or
 * another within the second) are dropped and their ids named in `x-ratelimited-<param>`.
 * Off with the other rate limits (RATE_LIMIT_ENABLED=false). Shared across api instances when
 * REDIS_URL is set.
 */
@Injectable()
export class BatchDeduplicator implements OnModuleDestroy {
  private readonly limiter: RateLimiterAbstract;
  private readonly redis?: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const options = { points: ENTITY_UPDATES_PER_SECOND, duration: 1, keyPrefix: 'notify-batch-entity' };
    if (config.RATE_LIMIT_ENABLED && config.REDIS_URL) {
      this.redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      this.limiter = new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) });
    } else {
      this.limiter = new RateLimiterMemory(options);
    }
  }

  get enabled(): boolean {
    return this.config.RATE_LIMIT_ENABLED;
  }

  /** Claims each entity key for this second; answers which indexes may proceed and which keys were dropped. */
  async claim(environment: string, scope: string, keys: readonly string[]): Promise<{ accepted: number[]; dropped: string[] }> {
    if (!this.enabled) return { accepted: keys.map((_, i) => i), dropped: [] };
    const accepted: number[] = [];
    const dropped: string[] = [];
    const seen = new Set<string>();
    const results = await Promise.all(
      keys.map(async (key) => {
        if (seen.has(key)) return false;
        seen.add(key);
        try {
          await this.limiter.consume(`${environment}:${scope}:${key}`);
          return true;
        } catch (rejection) {
          if (rejection instanceof RateLimiterRes) return false;
          throw rejection;
        }
      }),
    );
    results.forEach((ok, i) => (ok ? accepted.push(i) : dropped.push(keys[i])));
    return { accepted, dropped: [...new Set(dropped)] };
  }

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }
}

/** `x-ratelimited-user-ids: a,b` names the ids a batch request dropped. */
export const ratelimitedHeader = (param: string) => `x-ratelimited-${param}`;
