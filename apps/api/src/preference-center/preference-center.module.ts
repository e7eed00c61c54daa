import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { PreferenceCenterQueries } from '@notify/projections/preference-center';
import { ManagePreferenceCenterController } from './manage/preference-center.controller';
import {
  ConfigurePreferenceCenterHandler,
  DeletePreferenceCategoryHandler,
  GetPreferenceCenterHandler,
  ListPreferenceCategoriesHandler,
  UpsertPreferenceCategoryHandler,
} from './manage/preference-center.handlers';

/** Preference categories, the preference center configuration, its signed links and hosted page (ADR 0189, 0190). */
@Module({
  controllers: [ManagePreferenceCenterController],
  providers: [
    { provide: PreferenceCenterQueries, inject: [DATABASE], useFactory: (db: Database) => new PreferenceCenterQueries(db.dataSource) },
    ListPreferenceCategoriesHandler,
    UpsertPreferenceCategoryHandler,
    DeletePreferenceCategoryHandler,
    GetPreferenceCenterHandler,
    ConfigurePreferenceCenterHandler,
  ],
})
export class PreferenceCenterModule {}
