import { Command } from '@nestjs/cqrs';
import { ResourceType } from '@notify/domain';
import { RequestContext } from '@notify/http';

export class CommitChangesCommand extends Command<{ result: 'success' }> {
  constructor(
    readonly ctx: RequestContext,
    readonly message: string | null,
    readonly filter: { types?: ResourceType[]; identifier?: string } = {},
  ) {
    super();
  }
}
