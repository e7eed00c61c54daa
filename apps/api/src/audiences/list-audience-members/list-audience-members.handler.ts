import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { audienceExists, AudienceDeps } from '@notify/application';
import { resourceMissing } from '@notify/domain';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { AUDIENCE_DEPS } from '../audience-deps';
import { ListAudienceMembersQuery } from './list-audience-members.query';

@QueryHandler(ListAudienceMembersQuery)
export class ListAudienceMembersHandler implements IQueryHandler<ListAudienceMembersQuery> {
  constructor(
    @Inject(AUDIENCE_DEPS) private readonly deps: AudienceDeps,
    private readonly members: AudienceMemberQueries,
  ) {}

  async execute({ environment, audienceKey, page }: ListAudienceMembersQuery) {
    if (!(await audienceExists(this.deps, environment, audienceKey))) throw resourceMissing('audience');
    return this.members.list(environment, audienceKey, page);
  }
}
