import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { commitAllRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { CommitChangesCommand } from './commit-changes.command';

@Controller()
export class CommitChangesController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(commitAllRoute)
  commit(@Input() { query }: RouteInput<typeof commitAllRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new CommitChangesCommand(ctx, query.commit_message ?? null, { types: query.resource_type, identifier: query.resource_id }),
    );
  }
}
