import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Logger, LOGGER } from '@notify/logging';
import { EXPOSITION_CONTENT_TYPE, exposition } from '@notify/observability';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A worker running as its own process has no HTTP API; with WORKER_METRICS_PORT set it answers
 * `GET /metrics` with its own registry (provider calls, Kafka publishes, process metrics). Under
 * `npm start` api and worker share one process and the api's /metrics already holds all of it.
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.WORKER_METRICS_PORT;
    if (port === undefined) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      exposition()
        .then((body) => res.writeHead(200, { 'content-type': EXPOSITION_CONTENT_TYPE }).end(body))
        .catch((error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${(error as Error).message}\n`));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.HOST, () => resolve());
    });
    this.server = server;
    this.logger.info({ port: (server.address() as AddressInfo).port }, 'worker metrics listening');
  }

  /** The bound port (0 in the setting picks a free one). */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
