import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { GoalQueries } from '@notify/projections/goals';
import { SourceQueries } from '@notify/projections/sources';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { IngestSourceEventController } from './ingest-source-event/ingest-source-event.controller';
import { IngestSourceEventHandler } from './ingest-source-event/ingest-source-event.handler';
import { ReplaySourceEventHandler } from './replay-source-event/replay-source-event.handler';
import { sourceDepsProviders } from './source-deps';
import { sourceHandlers } from './source.handlers';
import { SourcesController } from './sources.controller';

/** Inbound event sources (ADR 0195): their management routes and their ingest endpoint. */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [SourcesController, IngestSourceEventController],
  providers: [
    { provide: SourceQueries, inject: [DATABASE], useFactory: (db: Database) => new SourceQueries(db.dataSource) },
    { provide: GoalQueries, inject: [DATABASE], useFactory: (db: Database) => new GoalQueries(db.dataSource) },
    ...sourceDepsProviders,
    ...sourceHandlers,
    IngestSourceEventHandler,
    ReplaySourceEventHandler,
  ],
})
export class SourcesModule {}
