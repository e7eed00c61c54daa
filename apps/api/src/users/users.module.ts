import { Module } from '@nestjs/common';
import { DeleteUserController } from './delete-user/delete-user.controller';
import { DeleteUserHandler } from './delete-user/delete-user.handler';
import { EraseUserController } from './erase-user/erase-user.controller';
import { EraseUserHandler } from './erase-user/erase-user.handler';
import { GetUserController } from './get-user/get-user.controller';
import { GetUserHandler } from './get-user/get-user.handler';
import { IdentifyUserController } from './identify-user/identify-user.controller';
import { IdentifyUserHandler } from './identify-user/identify-user.handler';
import { ListUsersController } from './list-users/list-users.controller';
import { ListUsersHandler } from './list-users/list-users.handler';
import { MergeUserController } from './merge-user/merge-user.controller';
import { MergeUserHandler } from './merge-user/merge-user.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { RecipientInsightController, recipientInsightProviders } from './recipient-insight/recipient-insight.controller';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [
    IdentifyUserController,
    GetUserController,
    ListUsersController,
    DeleteUserController,
    EraseUserController,
    MergeUserController,
    RecipientInsightController,
  ],
  providers: [
    IdentifyUserHandler,
    GetUserHandler,
    ListUsersHandler,
    DeleteUserHandler,
    EraseUserHandler,
    MergeUserHandler,
    ...recipientInsightProviders,
  ],
})
export class UsersModule {}
