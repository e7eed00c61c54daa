import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EnvironmentLookup } from '../environment-lookup';
import { presentEnvironment } from '../present-environment';
import { ListEnvironmentsQuery } from './list-environments.query';

@QueryHandler(ListEnvironmentsQuery)
export class ListEnvironmentsHandler implements IQueryHandler<ListEnvironmentsQuery> {
  constructor(private readonly environments: EnvironmentLookup) {}

  async execute({ page }: ListEnvironmentsQuery) {
    const { entries, page_info } = await this.environments.queries.pageEnvironments(page);
    const presented = await Promise.all(
      entries.map(async (e) => presentEnvironment(e, await this.environments.commits.lastCommitAt(e.slug))),
    );
    return { entries: presented, page_info };
  }
}
