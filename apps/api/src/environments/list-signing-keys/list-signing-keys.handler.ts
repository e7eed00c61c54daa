import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EnvironmentLookup } from '../environment-lookup';
import { presentSigningKey } from '../present-signing-key';
import { ListSigningKeysQuery } from './list-signing-keys.query';

@QueryHandler(ListSigningKeysQuery)
export class ListSigningKeysHandler implements IQueryHandler<ListSigningKeysQuery> {
  constructor(private readonly environments: EnvironmentLookup) {}

  async execute({ environment }: ListSigningKeysQuery) {
    await this.environments.require(environment);
    const keys = await this.environments.queries.listSigningKeys(environment);
    return { entries: keys.map((k) => presentSigningKey(environment, k)) };
  }
}
