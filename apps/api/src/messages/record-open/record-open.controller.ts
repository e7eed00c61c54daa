import { Controller, Inject, Res } from '@nestjs/common';
import { engageMessage, LinkTracker } from '@notify/application';
import { RouteInput, trackedOpenRoute } from '@notify/contracts';
import { DomainError, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { Endpoint, Input } from '@notify/http';
import { Logger, LOGGER } from '@notify/logging';
import { EVENT_STORE, LINK_TRACKER } from '@notify/platform';
import { FastifyReply } from 'fastify';

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * An email's open pixel was loaded (ADR 0205): the message is marked read (and seen), as the
 * reference's open tracking does. A message gone still gets its pixel; an altered token is 404.
 */
@Controller()
export class RecordOpenController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LINK_TRACKER) private readonly links: LinkTracker | null,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Endpoint(trackedOpenRoute)
  async open(@Input() { params }: RouteInput<typeof trackedOpenRoute>, @Res() reply: FastifyReply) {
    const open = this.links?.verifyOpen(params.token);
    if (!open) throw resourceMissing('open pixel');
    try {
      await engageMessage(this.store, open.environment, open.messageId, 'read', { environment: open.environment, actor: 'recipient:open' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.logger.warn({ message: open.messageId, code: error.code }, 'open pixel of a message that cannot record it');
    }
    return reply.status(200).header('content-type', 'image/gif').header('cache-control', 'no-store, max-age=0').send(PIXEL);
  }
}
