import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { WorkflowRunQueries } from '@notify/projections/workflow-runs';
import { GetWorkflowRecipientRunController } from './get-workflow-recipient-run/get-workflow-recipient-run.controller';
import { GetWorkflowRecipientRunHandler } from './get-workflow-recipient-run/get-workflow-recipient-run.handler';
import { ListWorkflowRecipientRunsController } from './list-workflow-recipient-runs/list-workflow-recipient-runs.controller';
import { ListWorkflowRecipientRunsHandler } from './list-workflow-recipient-runs/list-workflow-recipient-runs.handler';

/** Workflow recipient runs: what each recipient's run did, step by step. */
@Module({
  controllers: [ListWorkflowRecipientRunsController, GetWorkflowRecipientRunController],
  providers: [
    { provide: WorkflowRunQueries, inject: [DATABASE], useFactory: (db: Database) => new WorkflowRunQueries(db.dataSource) },
    ListWorkflowRecipientRunsHandler,
    GetWorkflowRecipientRunHandler,
  ],
})
export class WorkflowRunsModule {}
