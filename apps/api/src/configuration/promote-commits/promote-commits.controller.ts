import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { promoteAllRoute, promoteOneRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetCommitQuery } from '../get-commit/get-commit.query';
import { PromoteCommitsCommand } from './promote-commits.command';

@Controller()
export class PromoteCommitsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(promoteAllRoute)
  async all(@Input() { query }: RouteInput<typeof promoteAllRoute>, @Ctx() ctx: RequestContext) {
    await this.commands.execute(
      new PromoteCommitsCommand(ctx, { toEnvironment: query.to_environment, types: query.resource_type, identifier: query.resource_id }),
    );
    return { result: 'success' as const };
  }

  @Endpoint(promoteOneRoute)
  async one(@Input() { params }: RouteInput<typeof promoteOneRoute>, @Ctx() ctx: RequestContext) {
    await this.commands.execute(new PromoteCommitsCommand(ctx, { commitId: params.id }));
    return { commit: await this.queries.execute(new GetCommitQuery(params.id)) };
  }
}
