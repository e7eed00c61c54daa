import { Module } from '@nestjs/common';
import { ExplainController } from './explain/explain.controller';
import { ProjectionRebuilds } from './rebuild-projection/projection-rebuilds';
import { RebuildProjectionController } from './rebuild-projection/rebuild-projection.controller';
import { TailLogController } from './tail-log/tail-log.controller';
import { ExplainHandler } from './explain/explain.handler';
import { eventHistoryProvider } from './event-history.provider';
import { ImportLogController } from './import-log/import-log.controller';
import { LogImporter } from './import-log/log-importer';
import { ListEventTypesController } from './list-event-types/list-event-types.controller';
import { ListEventTypesHandler } from './list-event-types/list-event-types.handler';
import { LogHeadController } from './log-head/log-head.controller';
import { LogHeadHandler } from './log-head/log-head.handler';
import { ListStreamCategoriesController } from './list-stream-categories/list-stream-categories.controller';
import { ListStreamCategoriesHandler } from './list-stream-categories/list-stream-categories.handler';
import { ObjectHistoryController } from './object-history/object-history.controller';
import { ObjectHistoryHandler } from './object-history/object-history.handler';
import { ReadLogController } from './read-log/read-log.controller';
import { ReadLogHandler } from './read-log/read-log.handler';
import { ReadStreamController } from './read-stream/read-stream.controller';
import { ReadStreamHandler } from './read-stream/read-stream.handler';
import { StateAsOfController } from './state-as-of/state-as-of.controller';
import { KafkaReplayer } from './replay-to-kafka/kafka-replayer';
import { ReplayToKafkaController } from './replay-to-kafka/replay-to-kafka.controller';
import { VerifyLogController } from './verify-log/verify-log.controller';
import { VerifyLogHandler } from './verify-log/verify-log.handler';
import { UserAsOfController } from './user-as-of/user-as-of.controller';
import { UserAsOfHandler } from './user-as-of/user-as-of.handler';
import { UserHistoryController } from './user-history/user-history.controller';
import { UserHistoryHandler } from './user-history/user-history.handler';

/**
 * Management API: the event log for auditors (ADR 0175). Stream categories and event types,
 * one stream, the whole log with filters, and the history of one user or object.
 */
@Module({
  controllers: [
    ListStreamCategoriesController,
    ListEventTypesController,
    ReadStreamController,
    LogHeadController,
    ReadLogController,
    UserAsOfController,
    StateAsOfController,
    UserHistoryController,
    ObjectHistoryController,
    VerifyLogController,
    ReplayToKafkaController,
    ImportLogController,
    ExplainController,
    TailLogController,
    RebuildProjectionController,
  ],
  providers: [
    eventHistoryProvider,
    ProjectionRebuilds,
    ListStreamCategoriesHandler,
    ListEventTypesHandler,
    ReadStreamHandler,
    LogHeadHandler,
    ReadLogHandler,
    UserAsOfHandler,
    UserHistoryHandler,
    ObjectHistoryHandler,
    VerifyLogHandler,
    KafkaReplayer,
    LogImporter,
    ExplainHandler,
  ],
})
export class EventLogModule {}
