import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { shownEnvironment } from '@notify/domain';
import { CommitQueries } from '@notify/projections/commits';
import { ListCommitsQuery } from './list-commits.query';

@QueryHandler(ListCommitsQuery)
export class ListCommitsHandler implements IQueryHandler<ListCommitsQuery> {
  constructor(private readonly commits: CommitQueries) {}

  async execute({ environment, query }: ListCommitsQuery) {
    const { entries, page_info } = await this.commits.list(environment, query, {
      promoted: query.promoted,
      types: query.resource_type,
      identifier: query.resource_id,
    });
    return {
      entries: entries.map(({ sha: _sha, ...commit }) => ({ ...commit, environment: shownEnvironment(commit.environment) })),
      page_info,
    };
  }
}
