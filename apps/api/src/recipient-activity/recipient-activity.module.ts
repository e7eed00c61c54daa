import { Module } from '@nestjs/common';
import { RecipientExistence } from '../recipients/recipient-exists';
import { ListRecipientSchedulesController } from './list-recipient-schedules/list-recipient-schedules.controller';
import { ListRecipientSchedulesHandler } from './list-recipient-schedules/list-recipient-schedules.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [ListRecipientSchedulesController],
  providers: [ListRecipientSchedulesHandler, RecipientExistence],
})
export class RecipientActivityModule {}
