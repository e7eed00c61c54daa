import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { engageMessage, isLinkPreviewer, LinkTracker } from '@notify/application';
import { DomainError, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { EVENT_STORE, LINK_TRACKER } from '@notify/platform';
import { FollowTrackedLinkCommand } from './follow-tracked-link.command';

/**
 * A click on a tracked link: records link_clicked on the message (which also marks it read and
 * seen) and sends the browser on. A link whose message is gone still redirects: the recipient
 * asked for the page, not for the record. A chat app's link-preview robot (Slack's, Discord's,
 * ... unfurling a link posted in a message) is redirected without recording a click (ADR 0222).
 * Unsigned or altered tokens, or tracking off: 404.
 */
@CommandHandler(FollowTrackedLinkCommand)
export class FollowTrackedLinkHandler implements ICommandHandler<FollowTrackedLinkCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LINK_TRACKER) private readonly links: LinkTracker | null,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ token, userAgent }: FollowTrackedLinkCommand): Promise<string> {
    const link = this.links?.verify(token);
    if (!link) throw resourceMissing('link');
    if (isLinkPreviewer(userAgent)) return link.url;
    try {
      await engageMessage(
        this.store,
        link.environment,
        link.messageId,
        'link_clicked',
        { environment: link.environment, actor: 'recipient:link' },
        { url: link.url },
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.logger.warn({ message: link.messageId, code: error.code }, 'tracked link of a message that cannot record the click');
    }
    return link.url;
  }
}
