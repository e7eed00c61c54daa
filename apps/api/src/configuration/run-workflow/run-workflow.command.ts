import { Command } from '@nestjs/cqrs';
import { RunWorkflowBodyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class RunWorkflowCommand extends Command<{ workflow_run_id: string }> {
  constructor(
    readonly ctx: RequestContext,
    readonly workflowKey: string,
    readonly body: RunWorkflowBodyT,
  ) {
    super();
  }
}
