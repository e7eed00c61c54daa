import { Command } from '@nestjs/cqrs';
import { PromoteTarget } from '@notify/application';
import { RequestContext } from '@notify/http';

export type { PromoteTarget };

export class PromoteCommitsCommand extends Command<{ promoted: string[]; environment: string }> {
  constructor(
    readonly ctx: RequestContext,
    readonly target: PromoteTarget,
  ) {
    super();
  }
}
