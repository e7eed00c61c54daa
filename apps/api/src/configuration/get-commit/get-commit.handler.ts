import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CommitT } from '@notify/contracts';
import { resourceMissing, shownEnvironment } from '@notify/domain';
import { CommitQueries } from '@notify/projections/commits';
import { GetCommitQuery } from './get-commit.query';

@QueryHandler(GetCommitQuery)
export class GetCommitHandler implements IQueryHandler<GetCommitQuery> {
  constructor(private readonly commits: CommitQueries) {}

  async execute({ id }: GetCommitQuery): Promise<CommitT> {
    const commit = await this.commits.byId(id);
    if (!commit) throw resourceMissing('commit');
    const { sha: _sha, ...rest } = commit;
    return { ...rest, environment: shownEnvironment(rest.environment) };
  }
}
