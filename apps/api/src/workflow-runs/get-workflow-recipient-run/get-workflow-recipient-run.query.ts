import { Query } from '@nestjs/cqrs';
import { WorkflowRecipientRunDetailT } from '@notify/contracts';

export class GetWorkflowRecipientRunQuery extends Query<WorkflowRecipientRunDetailT> {
  constructor(
    readonly environment: string,
    readonly runId: string,
  ) {
    super();
  }
}
