import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EnvironmentLookup } from '../environment-lookup';
import { GetSecurityQuery } from './get-security.query';

@QueryHandler(GetSecurityQuery)
export class GetSecurityHandler implements IQueryHandler<GetSecurityQuery> {
  constructor(private readonly environments: EnvironmentLookup) {}

  execute({ environment }: GetSecurityQuery) {
    return this.environments.security(environment);
  }
}
