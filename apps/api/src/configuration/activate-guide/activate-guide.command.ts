import { Command } from '@nestjs/cqrs';
import { GuideActivation } from '@notify/application';
import { RequestContext } from '@notify/http';

export class ActivateGuideCommand extends Command<{ guide: Record<string, unknown> }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly activation: GuideActivation,
  ) {
    super();
  }
}
