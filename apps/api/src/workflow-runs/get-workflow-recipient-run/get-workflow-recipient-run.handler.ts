import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WorkflowRecipientRunDetailT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { WorkflowRunQueries } from '@notify/projections/workflow-runs';
import { GetWorkflowRecipientRunQuery } from './get-workflow-recipient-run.query';

@QueryHandler(GetWorkflowRecipientRunQuery)
export class GetWorkflowRecipientRunHandler implements IQueryHandler<GetWorkflowRecipientRunQuery> {
  constructor(private readonly runs: WorkflowRunQueries) {}

  async execute({ environment, runId }: GetWorkflowRecipientRunQuery): Promise<WorkflowRecipientRunDetailT> {
    const run = await this.runs.get(environment, runId);
    if (!run) throw resourceMissing('workflow recipient run');
    return run;
  }
}
