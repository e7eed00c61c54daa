import { Command } from '@nestjs/cqrs';

/** Answers the URL to redirect to. */
export class FollowTrackedLinkCommand extends Command<string> {
  constructor(readonly token: string) {
    super();
  }
}
