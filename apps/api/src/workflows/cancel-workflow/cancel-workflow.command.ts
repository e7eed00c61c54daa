import { Command } from '@nestjs/cqrs';
import { CancelWorkflowBodyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class CancelWorkflowCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly workflowKey: string,
    readonly body: CancelWorkflowBodyT,
  ) {
    super();
  }
}
