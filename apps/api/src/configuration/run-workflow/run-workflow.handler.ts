import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, RecipientDeps, triggerWorkflow } from '@notify/application';
import { assertNotBranch } from '@notify/domain';
import { ENGINE_LOOKUPS } from '@notify/platform';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { commandMetadata } from '../../shared/command-metadata';
import { RunWorkflowCommand } from './run-workflow.command';

/**
 * What a test run sees: the workflow the environment serves counts as active (a test run is how
 * one tries a workflow before activating it); it must still be valid.
 */
function servedWorkflowsActive(lookups: EngineLookups): EngineLookups {
  const workflow: EngineLookups['workflow'] = async (environment, key) => {
    const served = await lookups.workflow(environment, key);
    return served && { ...served, active: true };
  };
  return new Proxy(lookups, {
    get: (target, property, receiver) => (property === 'workflow' ? workflow : Reflect.get(target, property, receiver)),
  });
}

/** A test run: a trigger like any other (same engine, same events), recorded with trigger source `test`. */
@CommandHandler(RunWorkflowCommand)
export class RunWorkflowHandler implements ICommandHandler<RunWorkflowCommand> {
  private readonly lookups: EngineLookups;

  constructor(
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) lookups: EngineLookups,
  ) {
    this.lookups = servedWorkflowsActive(lookups);
  }

  async execute({ ctx, workflowKey, body }: RunWorkflowCommand): Promise<{ workflow_run_id: string }> {
    assertNotBranch(ctx.environment, 'A test run');
    const { workflow_run_id } = await triggerWorkflow(
      { recipients: this.recipients, lookups: this.lookups },
      ctx.environment,
      workflowKey,
      body,
      commandMetadata(ctx),
      { source: { type: 'test' } },
    );
    return { workflow_run_id };
  }
}
