import { Controller, Inject, Module } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler, IQueryHandler, Query, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { ERASURE_KEYS, ErasureKeyStore, removeMember } from '@notify/application';
import { getMemberRoute, listMembersRoute, MemberT, MgmtPageInfoT, removeMemberRoute, RouteInput } from '@notify/contracts';
import { Database } from '@notify/database';
import { resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DATABASE, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { MemberQueries, MemberRecord } from '@notify/projections/members';
import { commandMetadata } from '../shared/command-metadata';

/** The account's members in the management API: list, get, remove (added with `notify members add`). */

const iso = (d: Date) => new Date(d).toISOString();

function present(m: MemberRecord): MemberT {
  return {
    id: m.id,
    role: m.role as MemberT['role'],
    // The dashboard user behind the membership: this service has no other record of it.
    user: { id: m.user_id, email: m.email, name: m.name, avatar_url: null, created_at: iso(m.created_at), updated_at: iso(m.updated_at) },
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
  };
}

export class ListMembersQuery extends Query<{ entries: MemberT[]; page_info: MgmtPageInfoT }> {
  constructor(readonly query: RouteInput<typeof listMembersRoute>['query']) {
    super();
  }
}
export class GetMemberQuery extends Query<MemberT> {
  constructor(readonly id: string) {
    super();
  }
}
export class RemoveMemberCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(ListMembersQuery)
export class ListMembersHandler implements IQueryHandler<ListMembersQuery> {
  constructor(private readonly members: MemberQueries) {}

  async execute({ query }: ListMembersQuery) {
    const { rows, pageInfo } = await this.members.list({ role: query.role, email: query.email }, query);
    return { entries: rows.map(present), page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }
}

@QueryHandler(GetMemberQuery)
export class GetMemberHandler implements IQueryHandler<GetMemberQuery> {
  constructor(private readonly members: MemberQueries) {}

  async execute({ id }: GetMemberQuery) {
    const member = await this.members.get(id);
    if (!member) throw resourceMissing('member');
    return present(member);
  }
}

@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly members: MemberQueries,
    @Inject(ERASURE_KEYS) private readonly keys: ErasureKeyStore,
  ) {}

  async execute({ ctx, id }: RemoveMemberCommand) {
    const member = await this.members.get(id);
    if (!member) throw resourceMissing('member');
    // Removing a member erases it (ADR 0220): its key is destroyed, its address and name read as erased in the log.
    const outcome = await removeMember(this.store, this.keys, member.email, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}

@Controller()
export class MembersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(listMembersRoute)
  list(@Input() { query }: RouteInput<typeof listMembersRoute>) {
    return this.queries.execute(new ListMembersQuery(query));
  }

  @Endpoint(getMemberRoute)
  get(@Input() { params }: RouteInput<typeof getMemberRoute>) {
    return this.queries.execute(new GetMemberQuery(params.id));
  }

  @Endpoint(removeMemberRoute)
  async remove(@Input() { params }: RouteInput<typeof removeMemberRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new RemoveMemberCommand(ctx, params.id));
  }
}

@Module({
  controllers: [MembersController],
  providers: [
    { provide: MemberQueries, inject: [DATABASE], useFactory: (db: Database) => new MemberQueries(db.dataSource) },
    ListMembersHandler,
    GetMemberHandler,
    RemoveMemberHandler,
  ],
})
export class MembersModule {}
