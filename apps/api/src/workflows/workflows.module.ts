import { Module } from '@nestjs/common';
import { TriggerWorkflowController } from './trigger-workflow/trigger-workflow.controller';
import { TriggerWorkflowHandler } from './trigger-workflow/trigger-workflow.handler';

/** Triggering workflows (and, as they arrive, cancelling them and listing their runs). */
@Module({
  controllers: [TriggerWorkflowController],
  providers: [TriggerWorkflowHandler],
})
export class WorkflowsModule {}
