import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WorkflowRunQueries } from '@notify/projections/workflow-runs';
import { ListWorkflowRecipientRunsQuery } from './list-workflow-recipient-runs.query';

@QueryHandler(ListWorkflowRecipientRunsQuery)
export class ListWorkflowRecipientRunsHandler implements IQueryHandler<ListWorkflowRecipientRunsQuery> {
  constructor(private readonly runs: WorkflowRunQueries) {}

  execute({ environment, filter }: ListWorkflowRecipientRunsQuery) {
    return this.runs.list(environment, filter);
  }
}
