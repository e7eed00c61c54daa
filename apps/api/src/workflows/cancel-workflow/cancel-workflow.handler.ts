import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, requestCancellation } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { ENGINE_LOOKUPS, EVENT_STORE } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { CancelWorkflowCommand } from './cancel-workflow.command';

/** Records the request and answers; the worker cancels the runs it covers. */
@CommandHandler(CancelWorkflowCommand)
export class CancelWorkflowHandler implements ICommandHandler<CancelWorkflowCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
  ) {}

  async execute({ ctx, workflowKey, body }: CancelWorkflowCommand): Promise<void> {
    await requestCancellation({ store: this.store, lookups: this.lookups }, ctx.environment, workflowKey, body, commandMetadata(ctx));
  }
}
