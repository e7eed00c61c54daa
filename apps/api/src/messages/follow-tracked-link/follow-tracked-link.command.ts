import { Command } from '@nestjs/cqrs';

/** Answers the URL to redirect to. `userAgent`: a chat app's link-preview robot is redirected without recording a click. */
export class FollowTrackedLinkCommand extends Command<string> {
  constructor(
    readonly token: string,
    readonly userAgent?: string,
  ) {
    super();
  }
}
