import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { MessageQueries } from '@notify/projections/messages';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { EngageUserGuideController } from './engage-user-guide/engage-user-guide.controller';
import { EngageUserGuideHandler } from './engage-user-guide/engage-user-guide.handler';
import { ListUserGuidesController } from './list-user-guides/list-user-guides.controller';
import { ListUserGuidesHandler } from './list-user-guides/list-user-guides.handler';
import { ServedGuides } from './served-guides';
import { UserGuides } from './user-guides';

const queries = [ConfigResourceQueries, AudienceMemberQueries, MessageQueries].map((Q) => ({
  provide: Q,
  inject: [DATABASE],
  useFactory: (db: Database) => new Q(db.dataSource),
}));

/** Guides as users see them (public API): targeting and engagement. */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [ListUserGuidesController, EngageUserGuideController],
  providers: [...queries, ServedGuides, UserGuides, ListUserGuidesHandler, EngageUserGuideHandler],
  exports: [ServedGuides, UserGuides],
})
export class GuidesModule {}
