import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, InlineRuns, RecipientDeps, triggerWorkflow } from '@notify/application';
import { CLOCK, Clock, ENGINE_LOOKUPS, INLINE_RUNS, ReadYourWrites } from '@notify/platform';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { commandMetadata } from '../../shared/command-metadata';
import { TriggerWorkflowCommand } from './trigger-workflow.command';

/**
 * Answers as soon as the trigger is durably recorded; runs execute in the worker, or with the
 * trigger where they need nothing asynchronous (ADR 0258).
 */
@CommandHandler(TriggerWorkflowCommand)
export class TriggerWorkflowHandler implements ICommandHandler<TriggerWorkflowCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly consistency: ReadYourWrites,
    @Inject(INLINE_RUNS) private readonly inline: InlineRuns | null,
  ) {}

  async execute({ ctx, workflowKey, body }: TriggerWorkflowCommand): Promise<{ workflow_run_id: string }> {
    const { workflow_run_id, writes } = await triggerWorkflow(
      { recipients: this.recipients, lookups: this.lookups, inline: this.inline ?? undefined, clock: this.clock },
      ctx.environment,
      workflowKey,
      body,
      commandMetadata(ctx),
      { configVersion: ctx.configVersion },
    );
    // Inline identification is a write the caller may read next; the runs themselves are asynchronous.
    await this.consistency.settleAll(writes.appends);
    return { workflow_run_id };
  }
}
