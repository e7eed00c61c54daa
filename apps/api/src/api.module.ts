import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpModule } from '@notify/http';
import { ChannelsModule } from './channels/channels.module';
import { ConfigurationModule } from './configuration/configuration.module';
import { BootstrapService } from './environments/bootstrap.service';
import { EnvironmentsModule } from './environments/environments.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { EventLogModule } from './event-log/event-log.module';
import { RealtimeModule } from './realtime/realtime.module';
import { ReadModelCredentialStore } from './environments/credential-store';
import { HealthController } from './system/health.controller';
import { MetricsController } from './system/metrics.controller';
import { OpenApiController } from './system/openapi.controller';
import { StreamStatus } from './system/stream-status';
import { UsersModule } from './users/users.module';
import { RecipientsModule } from './recipients/recipients.module';
import { PreferenceCenterModule } from './preference-center/preference-center.module';
import { VariablesModule } from './variables/variables.module';
import { TagsModule } from './tags/tags.module';
import { MembersModule } from './members/members.controller';
import { AssetsModule } from './assets/assets.controller';
import { IntegrationsModule } from './integrations/integrations.module';
import { ProvidersModule } from './providers/providers.module';
import { ItemSchemasModule } from './item-schemas/item-schemas.module';
import { WorkflowsModule } from './workflows/workflows.module';
import { WorkflowRunsModule } from './workflow-runs/workflow-runs.module';
import { MessagesModule } from './messages/messages.module';
import { FeedsModule } from './feeds/feeds.module';
import { GuidesModule } from './guides/guides.module';
import { SchedulesModule } from './schedules/schedules.module';
import { SourcesModule } from './sources/sources.module';
import { ReceiptsModule } from './receipts/receipts.module';
import { GoalsModule } from './goals/goals.module';
import { ConsoleModule } from './console/console.module';

/** The HTTP role: REST commands and queries under /v1, health and the API description. */
@Module({})
export class ApiModule {
  static register(): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        CqrsModule.forRoot(),
        HttpModule.forRoot({ credentialStore: ReadModelCredentialStore }),
        UsersModule,
        RecipientsModule,
        ConfigurationModule,
        ChannelsModule,
        VariablesModule,
        TagsModule,
        MembersModule,
        AssetsModule,
        IntegrationsModule,
        ProvidersModule,
        ItemSchemasModule,
        PreferenceCenterModule,
        WorkflowsModule,
        WorkflowRunsModule,
        MessagesModule,
        FeedsModule,
        GuidesModule,
        SchedulesModule,
        SourcesModule,
        ReceiptsModule,
        GoalsModule,
        EnvironmentsModule,
        ApiKeysModule,
        EventLogModule,
        RealtimeModule,
        ConsoleModule,
      ],
      controllers: [HealthController, MetricsController, OpenApiController],
      providers: [BootstrapService, StreamStatus],
    };
  }
}
