import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { promoteAllRoute, promoteOneRoute, RouteInput } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { BranchQueries } from '@notify/projections/branches';
import { GetCommitQuery } from '../get-commit/get-commit.query';
import { PromoteCommitsCommand } from './promote-commits.command';

@Controller()
export class PromoteCommitsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly branches: BranchQueries,
  ) {}

  @Endpoint(promoteAllRoute)
  async all(@Input() { query }: RouteInput<typeof promoteAllRoute>, @Ctx() ctx: RequestContext) {
    // `branch`: merge that branch of to_environment into it (the Knock CLI's `branch merge`).
    let fromBranch: string | undefined;
    if (query.branch !== undefined) {
      const branch = await this.branches.get(query.to_environment, query.branch);
      if (!branch) throw new DomainError('branch_not_found', `No branch named ${query.branch} in ${query.to_environment}`, 'not_found');
      fromBranch = branch.environment;
    }
    await this.commands.execute(
      new PromoteCommitsCommand(ctx, {
        toEnvironment: query.to_environment,
        fromBranch,
        types: query.resource_type,
        identifier: query.resource_id,
      }),
    );
    return { result: 'success' as const };
  }

  @Endpoint(promoteOneRoute)
  async one(@Input() { params }: RouteInput<typeof promoteOneRoute>, @Ctx() ctx: RequestContext) {
    await this.commands.execute(new PromoteCommitsCommand(ctx, { commitId: params.id }));
    return { commit: await this.queries.execute(new GetCommitQuery(params.id)) };
  }
}
