import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { VariableQueries } from '@notify/projections/variables';
import { presentVariable } from '../present-variable';
import { ListVariablesQuery } from './list-variables.query';

@QueryHandler(ListVariablesQuery)
export class ListVariablesHandler implements IQueryHandler<ListVariablesQuery> {
  constructor(private readonly variables: VariableQueries) {}

  async execute({ environment, query }: ListVariablesQuery) {
    const { entries, page_info } = await this.variables.list(query, query.type);
    return { entries: entries.map((v) => presentVariable(v, environment)), page_info };
  }
}
