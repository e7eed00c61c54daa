import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { UserQueries } from '@notify/projections/users';
import { DeleteUserController } from './delete-user/delete-user.controller';
import { DeleteUserHandler } from './delete-user/delete-user.handler';
import { GetUserController } from './get-user/get-user.controller';
import { GetUserHandler } from './get-user/get-user.handler';
import { IdentifyUserController } from './identify-user/identify-user.controller';
import { IdentifyUserHandler } from './identify-user/identify-user.handler';
import { ListUsersController } from './list-users/list-users.controller';
import { ListUsersHandler } from './list-users/list-users.handler';

@Module({
  controllers: [IdentifyUserController, GetUserController, ListUsersController, DeleteUserController],
  providers: [
    IdentifyUserHandler,
    GetUserHandler,
    ListUsersHandler,
    DeleteUserHandler,
    { provide: UserQueries, inject: [DATABASE], useFactory: (db: Database) => new UserQueries(db.dataSource) },
  ],
})
export class UsersModule {}
