import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@notify/config';
import { committedRequests } from '@notify/eventstore';
import { Logger, PinoNestLogger } from '@notify/logging';
import { observeHttpRequest } from '@notify/observability';
import { endRequestSpan, startRequestSpan } from './request-trace';
import { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import qs from 'qs';
import { AdmissionController, admitRequests, Refusal } from './admission';
import { answerClientError, ErrorFilter } from './error.filter';
import { refuseUnusableInput } from './input-limits';
import { decoratePublicUrl } from './public-url';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Methods a browser may send across origins: every method a route uses (a unit test checks it).
 * @fastify/cors allows only GET, HEAD and POST unless told, which blocked the browser client's
 * own PUT /v1/users/{id}, preference and channel data writes (ADR 0122).
 */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The Fastify-based Nest application every HTTP entry point uses: query strings in all the
 * forms clients send, request ids, JSON bodies (also empty ones on DELETE), CORS, one error shape.
 */
export async function createHttpApp(module: unknown, config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  const filter = new ErrorFilter(logger);
  const adapter = new FastifyAdapter({
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: true,
    genReqId: (req: IncomingMessage) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Requests the HTTP parser refuses, and errors of the router itself (a path that is not
    // valid percent-encoding), in the error shape too.
    clientErrorHandler: answerClientError,
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('x-request-id', request.id);
      filter.send(error, request, reply);
    },
    routerOptions: {
      ignoreTrailingSlash: true,
      // Above what Node accepts in a request line, so an over-long id reaches its route's
      // contract and is answered there (422 naming the parameter), not by the router.
      maxParamLength: 16 * 1024,
      // a[]=x, a[0][id]=x, a[b]=x and a.b=x all arrive as nested values.
      querystringParser: (s: string) =>
        qs.parse(s, { allowDots: true, depth: 5, arrayLimit: 1000, parameterLimit: 2000 }) as Record<string, unknown>,
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    bodyParser: false,
  });
  app.useGlobalFilters(filter);
  const fastify = app.getHttpAdapter().getInstance();
  decoratePublicUrl(fastify, config.PUBLIC_URL);
  // Before any other work of ours. The adapter's CORS hook runs first (Nest adds it when it
  // creates the instance), so a refusal carries the CORS headers a browser needs to read it,
  // and a preflight is answered without counting.
  const admission = new AdmissionController({
    maxInFlight: config.HTTP_MAX_IN_FLIGHT,
    maxQueued: config.HTTP_QUEUE_SIZE,
    queueTimeoutMs: config.HTTP_QUEUE_TIMEOUT_MS,
  });
  admitRequests(fastify, admission, sheddingLog(logger));
  fastify.decorate('admission', admission);
  refuseUnusableInput(fastify, { bodyLimitBytes: config.BODY_LIMIT_BYTES, maxDepth: config.BODY_MAX_DEPTH });

  fastify.addHook('onRequest', async (request) => {
    startRequestSpan(request);
  });
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    committedRequests.forget(String(request.id));
    observeHttpRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    endRequestSpan(request, reply.statusCode);
    logger.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        env: request.ctx?.environment,
      },
      'request',
    );
  });

  const origins = config.CORS_ORIGINS.trim();
  app.enableCors({
    origin: origins === '*' ? true : origins.split(',').map((o) => o.trim()),
    credentials: true,
    methods: [...CORS_METHODS],
    // Requested headers are reflected, so browser clients may send their own x-* headers.
    exposedHeaders: [
      'x-request-id',
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'idempotent-replayed',
      'original-x-request-id',
      'x-ratelimited-message_ids',
    ],
    maxAge: 600,
  });
  return app;
}

/** At most one warning a second while requests are refused, with how many and why. */
function sheddingLog(logger: Logger): (why: Refusal) => void {
  let since = 0;
  const counts: Record<Refusal, number> = { queue_full: 0, queue_timeout: 0 };
  return (why) => {
    counts[why]++;
    const now = Date.now();
    if (now - since < 1000) return;
    logger.warn({ refused: { ...counts } }, 'overloaded: refusing requests (503)');
    since = now;
    counts.queue_full = 0;
    counts.queue_timeout = 0;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's admission controller (load shedding); its stats for tests and diagnostics. */
    admission?: AdmissionController;
  }
}

export type { INestApplication };
