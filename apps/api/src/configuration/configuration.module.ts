import { Module } from '@nestjs/common';
import { TEMPLATE_CHECKER } from '@notify/application';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelAdminQueries, ChannelQueries } from '@notify/projections/channels';
import { BranchQueries } from '@notify/projections/branches';
import { CommitQueries } from '@notify/projections/commits';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { GoalQueries } from '@notify/projections/goals';
import { UserQueries } from '@notify/projections/users';
import { VariableQueries } from '@notify/projections/variables';
import { TemplateEngine } from '@notify/templating';
import { ActivateWorkflowController } from './activate-workflow/activate-workflow.controller';
import { ActivateWorkflowHandler } from './activate-workflow/activate-workflow.handler';
import { ActivateGuideController } from './activate-guide/activate-guide.controller';
import { GuideGroupsController } from './guide-groups/guide-groups.controller';
import { GetGuideGroupHandler, SetGuideGroupHandler } from './guide-groups/guide-groups.handlers';
import { ActivateGuideHandler } from './activate-guide/activate-guide.handler';
import { ArchiveGuideController } from './archive-guide/archive-guide.controller';
import { ArchiveResourceController } from './archive-resource/archive-resource.controller';
import { ArchiveResourceHandler } from './archive-resource/archive-resource.handler';
import { ArchiveGuideHandler } from './archive-guide/archive-guide.handler';
import { ArchiveAudienceController } from './archive-audience/archive-audience.controller';
import { ArchiveAudienceHandler } from './archive-audience/archive-audience.handler';
import { branchHandlers } from './branches/branch.handlers';
import { BranchesController } from './branches/branches.controller';
import { broadcastHandlers } from './broadcasts/broadcast.handlers';
import { BroadcastsController } from './broadcasts/broadcasts.controller';
import { BroadcastQueries } from '@notify/projections/broadcasts';
import { CommitChangesController } from './commit-changes/commit-changes.controller';
import { CommitChangesHandler } from './commit-changes/commit-changes.handler';
import { GetCommitController } from './get-commit/get-commit.controller';
import { GetCommitHandler } from './get-commit/get-commit.handler';
import { GetResourceController } from './get-resource/get-resource.controller';
import { GetResourceHandler } from './get-resource/get-resource.handler';
import { ListCommitsController } from './list-commits/list-commits.controller';
import { ListCommitsHandler } from './list-commits/list-commits.handler';
import { ListResourcesController } from './list-resources/list-resources.controller';
import { ListResourcesHandler } from './list-resources/list-resources.handler';
import { PreviewContexts } from './preview/preview-context';
import { PreviewController } from './preview/preview.controller';
import { PreviewHandler } from './preview/preview.handler';
import { PromoteCommitsController } from './promote-commits/promote-commits.controller';
import { PromoteCommitsHandler } from './promote-commits/promote-commits.handler';
import { EnvironmentOrder } from './shared/environments';
import { liquidTemplateChecker } from './shared/liquid-template-checker';
import { ResourceChecks } from './shared/resource-deps';
import { RunWorkflowController } from './run-workflow/run-workflow.controller';
import { RunWorkflowHandler } from './run-workflow/run-workflow.handler';
import { UpsertResourceController } from './upsert-resource/upsert-resource.controller';
import { UpsertResourceHandler } from './upsert-resource/upsert-resource.handler';
import { ValidateResourceController } from './validate-resource/validate-resource.controller';
import { ValidateResourceHandler } from './validate-resource/validate-resource.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

const queries = [
  ConfigResourceQueries,
  CommitQueries,
  ChannelQueries,
  ChannelAdminQueries,
  ChannelGroupQueries,
  VariableQueries,
  UserQueries,
  BroadcastQueries,
  GoalQueries,
  BranchQueries,
].map((Q) => ({
  provide: Q,
  inject: [DATABASE],
  useFactory: (db: Database) => new Q(db.dataSource),
}));

/** The management API: versioned resources (workflows, partials, layouts, translations, message types, guides) and commits. */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [
    ListResourcesController,
    GetResourceController,
    UpsertResourceController,
    ValidateResourceController,
    ActivateWorkflowController,
    ArchiveAudienceController,
    BroadcastsController,
    BranchesController,
    CommitChangesController,
    PromoteCommitsController,
    ListCommitsController,
    GetCommitController,
    PreviewController,
    RunWorkflowController,
    ActivateGuideController,
    GuideGroupsController,
    ArchiveGuideController,
    ArchiveResourceController,
  ],
  providers: [
    ...queries,
    EnvironmentOrder,
    ResourceChecks,
    { provide: TemplateEngine, useFactory: () => new TemplateEngine() },
    { provide: TEMPLATE_CHECKER, inject: [TemplateEngine], useFactory: liquidTemplateChecker },
    ListResourcesHandler,
    GetResourceHandler,
    ArchiveAudienceHandler,
    ...broadcastHandlers,
    ...branchHandlers,
    UpsertResourceHandler,
    ValidateResourceHandler,
    ActivateWorkflowHandler,
    CommitChangesHandler,
    PromoteCommitsHandler,
    ListCommitsHandler,
    GetCommitHandler,
    PreviewContexts,
    PreviewHandler,
    RunWorkflowHandler,
    ActivateGuideHandler,
    GetGuideGroupHandler,
    SetGuideGroupHandler,
    ArchiveGuideHandler,
    ArchiveResourceHandler,
  ],
})
export class ConfigurationModule {}
