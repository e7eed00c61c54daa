import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import fastifyStatic from '@fastify/static';
import { Logger, LOGGER } from '@notify/logging';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConsoleSessionController } from './session/console-session.controller';

/** Where the console is served (ADR 0169). */
export const CONSOLE_PATH = '/console';

/**
 * The console talks to its own origin only; Mantine sets CSS variables in a style element; email
 * previews (a sandboxed srcdoc frame, which inherits this policy) may show images.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The console's built assets: `dist/console`, written by `npm run build` (Vite, apps/console).
 * Compiled, this file is dist/apps/api/src/console/; run from source (tests), apps/api/src/console/.
 */
export function consoleAssetsDir(from = __dirname): string | undefined {
  const root = path.resolve(from, '../../../..');
  return [path.join(root, 'console'), path.join(root, 'dist', 'console')].find((dir) => existsSync(path.join(dir, 'index.html')));
}

/**
 * Serves the operator console (a static single-page application) from the api process at
 * /console/. It holds no credentials: the browser calls the management, public and event-log
 * APIs with the service token the operator logs in with, or a member's session cookie, whose
 * routes (sign-in with a login link, session, sign-out) are here (ADR 0210).
 */
@Module({ controllers: [ConsoleSessionController] })
export class ConsoleModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (!fastify) return; // no HTTP server in this context (CLI)
    const root = consoleAssetsDir();
    if (!root) {
      this.logger.warn('the console is not built (npm run build): /console answers 404');
      return;
    }
    void fastify.register(fastifyStatic, {
      root,
      prefix: `${CONSOLE_PATH}/`,
      // The page itself is the route below: the router ignores trailing slashes, so /console and
      // /console/ are one route, which the plugin's own index handling does not expect.
      index: false,
      // File names under assets/ carry a content hash: cache them for good; index.html never.
      setHeaders: (reply, file) => {
        void reply.header('x-content-type-options', 'nosniff');
        void reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
        void reply.header('referrer-policy', 'no-referrer');
        void reply.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    fastify.get(CONSOLE_PATH, (_request, reply) => reply.sendFile('index.html'));
  }
}
