import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { MessageQueries, RecipientLookup } from '@notify/projections/messages';
import { RecipientExistence } from '../recipients/recipient-exists';
import { BulkChannelMessagesController } from './bulk-channel-messages/bulk-channel-messages.controller';
import { BulkChannelMessagesHandler } from './bulk-channel-messages/bulk-channel-messages.handler';
import { EngageMessageController } from './engage-message/engage-message.controller';
import { EngageMessagesHandler } from './engage-message/engage-message.handler';
import { FollowTrackedLinkController } from './follow-tracked-link/follow-tracked-link.controller';
import { FollowTrackedLinkHandler } from './follow-tracked-link/follow-tracked-link.handler';
import { RecordOpenController } from './record-open/record-open.controller';
import { GetMessageController } from './get-message/get-message.controller';
import { GetMessageContentsHandler, GetMessageHandler } from './get-message/get-message.handler';
import { ListMessagesController } from './list-messages/list-messages.controller';
import { ListMessagesHandler } from './list-messages/list-messages.handler';
import { MessageAccess } from './message-access';
import { MessageHistoryController } from './message-history/message-history.controller';
import { ListMessageHistoryHandler } from './message-history/message-history.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

/** Messages: listings, content and histories, engagement one by one, in batches and channel-wide. */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [
    ListMessagesController,
    GetMessageController,
    MessageHistoryController,
    EngageMessageController,
    BulkChannelMessagesController,
    FollowTrackedLinkController,
    RecordOpenController,
  ],
  providers: [
    { provide: MessageQueries, inject: [DATABASE], useFactory: (db: Database) => new MessageQueries(db.dataSource) },
    { provide: RecipientLookup, inject: [DATABASE], useFactory: (db: Database) => new RecipientLookup(db.dataSource) },
    MessageAccess,
    RecipientExistence,
    ListMessagesHandler,
    GetMessageHandler,
    GetMessageContentsHandler,
    ListMessageHistoryHandler,
    EngageMessagesHandler,
    BulkChannelMessagesHandler,
    FollowTrackedLinkHandler,
  ],
  exports: [MessageAccess, MessageQueries, RecipientLookup],
})
export class MessagesModule {}
