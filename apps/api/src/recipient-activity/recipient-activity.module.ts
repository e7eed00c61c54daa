import { Module } from '@nestjs/common';
import { RecipientExistence } from '../recipients/recipient-exists';
import { ListRecipientSchedulesController } from './list-recipient-schedules/list-recipient-schedules.controller';
import { ListRecipientSchedulesHandler } from './list-recipient-schedules/list-recipient-schedules.handler';

@Module({
  controllers: [ListRecipientSchedulesController],
  providers: [ListRecipientSchedulesHandler, RecipientExistence],
})
export class RecipientActivityModule {}
