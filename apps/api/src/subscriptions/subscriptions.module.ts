import { Module } from '@nestjs/common';
import { AddSubscriptionsController } from './add-subscriptions/add-subscriptions.controller';
import { AddSubscriptionsHandler } from './add-subscriptions/add-subscriptions.handler';
import { DeleteSubscriptionsController } from './delete-subscriptions/delete-subscriptions.controller';
import { DeleteSubscriptionsHandler } from './delete-subscriptions/delete-subscriptions.handler';
import { ListObjectSubscriptionsController } from './list-object-subscriptions/list-object-subscriptions.controller';
import { ListObjectSubscriptionsHandler } from './list-object-subscriptions/list-object-subscriptions.handler';
import { ListUserSubscriptionsController } from './list-user-subscriptions/list-user-subscriptions.controller';
import { ListUserSubscriptionsHandler } from './list-user-subscriptions/list-user-subscriptions.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [
    ListObjectSubscriptionsController,
    AddSubscriptionsController,
    DeleteSubscriptionsController,
    ListUserSubscriptionsController,
  ],
  providers: [ListObjectSubscriptionsHandler, AddSubscriptionsHandler, DeleteSubscriptionsHandler, ListUserSubscriptionsHandler],
})
export class SubscriptionsModule {}
