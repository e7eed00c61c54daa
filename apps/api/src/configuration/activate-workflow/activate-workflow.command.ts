import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class ActivateWorkflowCommand extends Command<{ workflow: Record<string, unknown> }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly active: boolean,
  ) {
    super();
  }
}
