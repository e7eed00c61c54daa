import { Module } from '@nestjs/common';
import { inlineRunsProvider } from '@notify/platform';
import { idempotencyProviders } from '../shared/idempotent-route';
import { CancelWorkflowController } from './cancel-workflow/cancel-workflow.controller';
import { CancelWorkflowHandler } from './cancel-workflow/cancel-workflow.handler';
import { NotifyController } from './notify/notify.controller';
import { TriggerWorkflowController } from './trigger-workflow/trigger-workflow.controller';
import { TriggerWorkflowHandler } from './trigger-workflow/trigger-workflow.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

/** Triggering workflows (and, as they arrive, cancelling them and listing their runs). */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [TriggerWorkflowController, CancelWorkflowController, NotifyController],
  providers: [TriggerWorkflowHandler, CancelWorkflowHandler, inlineRunsProvider, ...idempotencyProviders],
})
export class WorkflowsModule {}
