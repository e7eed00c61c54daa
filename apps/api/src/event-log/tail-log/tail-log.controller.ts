import { BeforeApplicationShutdown, Controller, Inject, Req, Res } from '@nestjs/common';
import { EventHistory, logPositionOf, logRequest } from '@notify/application';
import { RouteInput, tailLogRoute } from '@notify/contracts';
import { SharedLogReader } from '@notify/eventstore';
import { Endpoint, Input, releaseAdmission } from '@notify/http';
import { Logger, LOGGER } from '@notify/logging';
import { LOG_READER } from '@notify/platform';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ServerResponse } from 'node:http';
import { tailLogPages } from '../../realtime/signal-sources';
import { EVENT_HISTORY } from '../event-history.provider';

/** A comment this often keeps proxies and load balancers from closing an idle stream. */
export const TAIL_KEEPALIVE_MS = 15_000;

/**
 * `GET /v1/events/tail` (ADR 0211): the log as server-sent events. Each client follows the log
 * from its `after` (or the head) with the process's shared tail of the log as the wake-up, one
 * filtered read per wake-up, as the real-time signals of embedded mode do; it costs a read only
 * when something was appended. The stream holds no admission place (it waits, it does no work).
 */
@Controller()
export class TailLogController implements BeforeApplicationShutdown {
  /** Open streams: ended when the process stops, so that they do not hold the server's close. */
  private readonly open = new Set<ServerResponse>();

  constructor(
    @Inject(EVENT_HISTORY) private readonly history: EventHistory,
    @Inject(LOG_READER) private readonly reader: SharedLogReader,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Endpoint(tailLogRoute)
  async tail(
    @Input() { query }: RouteInput<typeof tailLogRoute>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const read = logRequest(query);
    // Refused here (422) before the stream starts: a bad cursor.
    const from = read.after ?? (await this.history.head()).position;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx and the like would otherwise hold the events back in a buffer.
      'x-accel-buffering': 'no',
      'x-request-id': String(request.id),
    });
    raw.write(`retry: 2000\n: following after ${from || 'the start'}\n\n`);
    releaseAdmission(request);
    const keepalive = setInterval(() => raw.write(': keepalive\n\n'), TAIL_KEEPALIVE_MS);
    const stop = tailLogPages(
      this.reader,
      async (after) => {
        const page = await this.history.readLog({ ...read, after });
        if (page.entries.length && !raw.destroyed) raw.write(`event: events\ndata: ${JSON.stringify(page)}\n\n`);
        return logPositionOf(page.page_info.after ?? undefined) ?? after;
      },
      (error) => {
        this.logger.warn({ err: error }, 'log tail failed');
        raw.end();
      },
      from,
    );
    this.open.add(raw);
    raw.on('close', () => {
      this.open.delete(raw);
      clearInterval(keepalive);
      stop();
    });
  }

  beforeApplicationShutdown(): void {
    for (const raw of this.open) raw.end();
  }
}
