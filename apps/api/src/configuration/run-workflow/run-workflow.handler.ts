import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, RecipientDeps, triggerWorkflow } from '@notify/application';
import { ENGINE_LOOKUPS } from '@notify/platform';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { commandMetadata } from '../../shared/command-metadata';
import { RunWorkflowCommand } from './run-workflow.command';

/** A test run: a trigger like any other (same engine, same events), recorded with trigger source `test`. */
@CommandHandler(RunWorkflowCommand)
export class RunWorkflowHandler implements ICommandHandler<RunWorkflowCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
  ) {}

  async execute({ ctx, workflowKey, body }: RunWorkflowCommand): Promise<{ workflow_run_id: string }> {
    const { workflow_run_id } = await triggerWorkflow({ recipients: this.recipients, lookups: this.lookups }, ctx.environment, workflowKey, body, commandMetadata(ctx), {
      source: { type: 'test' },
      allowInactive: true,
    });
    return { workflow_run_id };
  }
}
