import { Module } from '@nestjs/common';
import { RecipientExistence } from '../recipients/recipient-exists';
import { GetChannelDataController } from './get-channel-data/get-channel-data.controller';
import { GetChannelDataHandler } from './get-channel-data/get-channel-data.handler';
import { SetChannelDataController } from './set-channel-data/set-channel-data.controller';
import { SetChannelDataHandler } from './set-channel-data/set-channel-data.handler';
import { UnsetChannelDataController } from './unset-channel-data/unset-channel-data.controller';
import { UnsetChannelDataHandler } from './unset-channel-data/unset-channel-data.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [GetChannelDataController, SetChannelDataController, UnsetChannelDataController],
  providers: [GetChannelDataHandler, SetChannelDataHandler, UnsetChannelDataHandler, RecipientExistence],
})
export class ChannelDataModule {}
