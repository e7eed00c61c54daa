import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { createBranch, deleteBranch, rebaseBranch } from '@notify/application';
import { BranchT } from '@notify/contracts';
import { branchNotFound, branchParent, DomainError } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { RequestContext } from '@notify/http';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { BranchQueries, BranchRecord } from '@notify/projections/branches';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { CreateBranchCommand, DeleteBranchCommand, GetBranchQuery, ListBranchesQuery, RebaseBranchCommand } from './branch.messages';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function present(b: BranchRecord): BranchT {
  return {
    slug: b.slug,
    created_at: iso(b.created_at)!,
    updated_at: iso(b.updated_at)!,
    deleted_at: null,
    last_commit_at: iso(b.last_commit_at),
  };
}

async function required(branches: BranchQueries, environment: string, slug: string): Promise<BranchRecord> {
  const branch = await branches.get(environment, slug);
  if (!branch) throw branchNotFound(slug);
  return branch;
}

/** Branches are made off the first environment only (the one configuration is edited in). */
async function assertBranchable(environments: EnvironmentOrder, ctx: RequestContext): Promise<void> {
  if (branchParent(ctx.environment) !== undefined || !(await environments.isEditable(ctx.environment)))
    throw new DomainError(
      'branch_environment',
      `Branches are made off the first environment; ${ctx.environment} receives promoted commits`,
      'invalid_request',
    );
}

@QueryHandler(ListBranchesQuery)
export class ListBranchesHandler implements IQueryHandler<ListBranchesQuery> {
  constructor(private readonly branches: BranchQueries) {}

  async execute({ environment, page }: ListBranchesQuery) {
    const { rows, pageInfo } = await this.branches.list(environment, page);
    return { entries: rows.map(present), page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }
}

@QueryHandler(GetBranchQuery)
export class GetBranchHandler implements IQueryHandler<GetBranchQuery> {
  constructor(private readonly branches: BranchQueries) {}

  async execute({ environment, slug }: GetBranchQuery) {
    return present(await required(this.branches, environment, slug));
  }
}

@CommandHandler(CreateBranchCommand)
export class CreateBranchHandler implements ICommandHandler<CreateBranchCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly branches: BranchQueries,
    private readonly resources: ConfigResourceQueries,
    private readonly environments: EnvironmentOrder,
  ) {}

  async execute({ ctx, slug }: CreateBranchCommand) {
    await assertBranchable(this.environments, ctx);
    const committed = await this.resources.committedVersions(ctx.environment);
    const outcome = await createBranch(this.store, ctx.environment, slug, committed, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return present(await required(this.branches, ctx.environment, slug));
  }
}

@CommandHandler(RebaseBranchCommand)
export class RebaseBranchHandler implements ICommandHandler<RebaseBranchCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly branches: BranchQueries,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, slug }: RebaseBranchCommand) {
    const branch = await required(this.branches, ctx.environment, slug);
    const [parentResources, branchShas] = await Promise.all([
      this.resources.committedVersions(ctx.environment),
      this.resources.latestShas(branch.environment),
    ]);
    const outcome = await rebaseBranch(this.store, ctx.environment, slug, { parentResources, branchShas }, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return present(await required(this.branches, ctx.environment, slug));
  }
}

@CommandHandler(DeleteBranchCommand)
export class DeleteBranchHandler implements ICommandHandler<DeleteBranchCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, slug }: DeleteBranchCommand) {
    const outcome = await deleteBranch(this.store, ctx.environment, slug, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}

export const branchHandlers = [ListBranchesHandler, GetBranchHandler, CreateBranchHandler, RebaseBranchHandler, DeleteBranchHandler];
