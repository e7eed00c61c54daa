import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { resourceMissing } from '@notify/domain';
import { VariableQueries } from '@notify/projections/variables';
import { presentVariable } from '../present-variable';
import { GetVariableQuery } from './get-variable.query';

@QueryHandler(GetVariableQuery)
export class GetVariableHandler implements IQueryHandler<GetVariableQuery> {
  constructor(private readonly variables: VariableQueries) {}

  async execute({ key }: GetVariableQuery) {
    const variable = await this.variables.get(key);
    if (!variable) throw resourceMissing('variable');
    return presentVariable(variable);
  }
}
