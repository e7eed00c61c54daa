import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { VariableQueries } from '@notify/projections/variables';
import { GetVariableController } from './get-variable/get-variable.controller';
import { GetVariableHandler } from './get-variable/get-variable.handler';
import { ListVariablesController } from './list-variables/list-variables.controller';
import { ListVariablesHandler } from './list-variables/list-variables.handler';
import { UpsertVariableController } from './upsert-variable/upsert-variable.controller';
import { UpsertVariableHandler } from './upsert-variable/upsert-variable.handler';
import { accountSettingsDeps } from '../shared/account-settings-deps';

/** Variables (`vars` in templates): a default value and values per environment. */
@Module({
  controllers: [UpsertVariableController, GetVariableController, ListVariablesController],
  providers: [
    accountSettingsDeps,
    { provide: VariableQueries, inject: [DATABASE], useFactory: (db: Database) => new VariableQueries(db.dataSource) },
    UpsertVariableHandler,
    GetVariableHandler,
    ListVariablesHandler,
  ],
})
export class VariablesModule {}
