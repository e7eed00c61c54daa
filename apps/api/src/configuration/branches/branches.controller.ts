import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { createBranchRoute, deleteBranchRoute, getBranchRoute, listBranchesRoute, rebaseBranchRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { CreateBranchCommand, DeleteBranchCommand, GetBranchQuery, ListBranchesQuery, RebaseBranchCommand } from './branch.messages';

/** Branches of the first environment (ADR 0156). */
@Controller()
export class BranchesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(listBranchesRoute)
  list(@Input() { query }: RouteInput<typeof listBranchesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListBranchesQuery(ctx.environment, { after: query.after, before: query.before, limit: query.limit }));
  }

  @Endpoint(getBranchRoute)
  get(@Input() { params }: RouteInput<typeof getBranchRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetBranchQuery(ctx.environment, params.branch_slug));
  }

  @Endpoint(createBranchRoute)
  create(@Input() { params }: RouteInput<typeof createBranchRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CreateBranchCommand(ctx, params.branch_slug));
  }

  @Endpoint(rebaseBranchRoute)
  rebase(@Input() { params }: RouteInput<typeof rebaseBranchRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new RebaseBranchCommand(ctx, params.branch_slug));
  }

  @Endpoint(deleteBranchRoute)
  async delete(@Input() { params }: RouteInput<typeof deleteBranchRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteBranchCommand(ctx, params.branch_slug));
  }
}
