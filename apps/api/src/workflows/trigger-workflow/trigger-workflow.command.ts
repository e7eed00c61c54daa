import { Command } from '@nestjs/cqrs';
import { TriggerWorkflowBodyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class TriggerWorkflowCommand extends Command<{ workflow_run_id: string }> {
  constructor(
    readonly ctx: RequestContext,
    readonly workflowKey: string,
    readonly body: TriggerWorkflowBodyT,
  ) {
    super();
  }
}
