import { Module } from '@nestjs/common';
import { RecipientExistence } from '../recipients/recipient-exists';
import { ListRecipientMessagesController } from './list-recipient-messages/list-recipient-messages.controller';
import { ListRecipientMessagesHandler } from './list-recipient-messages/list-recipient-messages.handler';
import { ListRecipientSchedulesController } from './list-recipient-schedules/list-recipient-schedules.controller';
import { ListRecipientSchedulesHandler } from './list-recipient-schedules/list-recipient-schedules.handler';

@Module({
  controllers: [ListRecipientMessagesController, ListRecipientSchedulesController],
  providers: [ListRecipientMessagesHandler, ListRecipientSchedulesHandler, RecipientExistence],
})
export class RecipientActivityModule {}
