import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, RecipientDeps, triggerWorkflow } from '@notify/application';
import { branchParent } from '@notify/domain';
import { CLOCK, Clock, ENGINE_LOOKUPS } from '@notify/platform';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { commandMetadata } from '../../shared/command-metadata';
import { RunWorkflowCommand } from './run-workflow.command';

/**
 * What a test run sees: the workflow `servedIn` serves (the environment, or the branch the run was
 * asked in) counts as active (a test run is how one tries a workflow before activating it); it
 * must still be valid. Whether it was archived is asked there too.
 */
function servedWorkflowsActive(lookups: EngineLookups, servedIn: string): EngineLookups {
  const workflow: EngineLookups['workflow'] = async (_environment, key) => {
    const served = await lookups.workflow(servedIn, key);
    return served && { ...served, active: true };
  };
  // Asked where the workflow is served too, so a workflow archived in the branch only is `workflow_archived`.
  const workflowArchived: EngineLookups['workflowArchived'] = async (_environment, key) =>
    (await lookups.workflowArchived?.(servedIn, key)) ?? false;
  const overridden: Partial<Record<string | symbol, unknown>> = { workflow, workflowArchived };
  return new Proxy(lookups, {
    get: (target, property, receiver) => (property in overridden ? overridden[property] : Reflect.get(target, property, receiver)),
  });
}

/**
 * A test run: a trigger like any other (same engine, same events), recorded with trigger source
 * `test`. In a branch (ADR 0226) it runs the branch's version of the workflow (carried in the
 * trigger's snapshot) in the branch's environment, whose recipients, channels and messages the
 * branch shares.
 */
@CommandHandler(RunWorkflowCommand)
export class RunWorkflowHandler implements ICommandHandler<RunWorkflowCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ctx, workflowKey, body }: RunWorkflowCommand): Promise<{ workflow_run_id: string }> {
    const runIn = branchParent(ctx.environment) ?? ctx.environment;
    const { workflow_run_id } = await triggerWorkflow(
      { recipients: this.recipients, lookups: servedWorkflowsActive(this.lookups, ctx.environment), clock: this.clock },
      runIn,
      workflowKey,
      body,
      { ...commandMetadata(ctx), environment: runIn },
      { source: { type: 'test' } },
    );
    return { workflow_run_id };
  }
}
