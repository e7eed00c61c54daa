import { Command } from '@nestjs/cqrs';
import { ResourceType } from '@notify/domain';
import { RequestContext } from '@notify/http';

export type PromoteTarget = { toEnvironment: string; types?: ResourceType[]; identifier?: string } | { commitId: string };

export class PromoteCommitsCommand extends Command<{ promoted: string[]; environment: string }> {
  constructor(
    readonly ctx: RequestContext,
    readonly target: PromoteTarget,
  ) {
    super();
  }
}
