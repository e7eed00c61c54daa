import { CanActivate, ExecutionContext, Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { RateTier, RouteContract } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { FastifyReply, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ROUTE_CONTRACT } from './endpoint.decorator';
import { RequestContext } from './request-context';

/** Requests per second allowed for each tier, per endpoint and environment (or user). */
export const TIER_LIMITS: Record<RateTier, number> = { 1: 1, 2: 5, 3: 60, 4: 200, 5: 1000 };

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limit_exceeded', 'Too many requests; retry after the time in the retry-after header', 'rate_limited');
  }
}

/** Whose budget a request spends: the environment's, or for browser (publishable-key) calls the user's. */
export function rateLimitSubject(ctx: RequestContext | undefined, ip: string): string {
  if (!ctx) return `ip:${ip}`;
  const user = ctx.userId ?? (ctx.credential.kind === 'publishable' ? ctx.subjectUserId : undefined);
  return `${ctx.environment}:${user !== undefined ? `user:${user}` : 'env'}`;
}

/**
 * Tiers are enforced per endpoint per environment, and per user when a user token is used.
 * With REDIS_URL the counters are shared by every api instance; otherwise they are per process.
 */
@Injectable()
export class RateLimitGuard implements CanActivate, OnModuleDestroy {
  private readonly limiters = new Map<RateTier, RateLimiterAbstract>();
  private readonly redis?: Redis;

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    if (config.RATE_LIMIT_ENABLED && config.REDIS_URL)
      this.redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    for (const tier of [1, 2, 3, 4, 5] as RateTier[]) {
      const options = { points: TIER_LIMITS[tier], duration: 1, keyPrefix: `notify-rl-t${tier}` };
      this.limiters.set(
        tier,
        this.redis
          ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) })
          : new RateLimiterMemory(options),
      );
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.RATE_LIMIT_ENABLED) return true;
    const route = this.reflector.get<RouteContract | undefined>(ROUTE_CONTRACT, context.getHandler());
    if (!route?.rateTier) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const ctx = request.ctx;
    const subject = rateLimitSubject(ctx, request.ip);
    const limit = TIER_LIMITS[route.rateTier];
    reply.header('x-ratelimit-limit', String(limit));
    try {
      const res = await this.limiters.get(route.rateTier)!.consume(`${route.operationId}:${subject}`);
      reply.header('x-ratelimit-remaining', String(res.remainingPoints));
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        reply.header('x-ratelimit-remaining', '0');
        throw new RateLimitedError(retryAfter);
      }
      throw rejection;
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.redis?.disconnect();
  }
}
