import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EnvironmentLookup } from '../environment-lookup';
import { presentEnvironment } from '../present-environment';
import { GetEnvironmentQuery } from './get-environment.query';

@QueryHandler(GetEnvironmentQuery)
export class GetEnvironmentHandler implements IQueryHandler<GetEnvironmentQuery> {
  constructor(private readonly environments: EnvironmentLookup) {}

  async execute({ slug }: GetEnvironmentQuery) {
    const environment = await this.environments.require(slug);
    return presentEnvironment(environment, await this.environments.commits.lastCommitAt(slug));
  }
}
