import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { PreferenceCenterQueries } from '@notify/projections/preference-center';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { ManagePreferenceCenterController } from './manage/preference-center.controller';
import {
  ConfigurePreferenceCenterHandler,
  DeletePreferenceCategoryHandler,
  GetPreferenceCenterHandler,
  ListPreferenceCategoriesHandler,
  UpsertPreferenceCategoryHandler,
} from './manage/preference-center.handlers';
import { PreferencePageController } from './page/preference-page.controller';
import { PreferencePage } from './page/preference-page.service';
import { PreferenceCenterPublicController } from './public/preference-center-public.controller';
import { PreferenceCenterPublic } from './public/preference-center-public.service';

/** Preference categories, the preference center configuration, its signed links and hosted page (ADR 0189, 0190). */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [ManagePreferenceCenterController, PreferenceCenterPublicController, PreferencePageController],
  providers: [
    { provide: PreferenceCenterQueries, inject: [DATABASE], useFactory: (db: Database) => new PreferenceCenterQueries(db.dataSource) },
    ListPreferenceCategoriesHandler,
    UpsertPreferenceCategoryHandler,
    DeletePreferenceCategoryHandler,
    GetPreferenceCenterHandler,
    ConfigurePreferenceCenterHandler,
    PreferenceCenterPublic,
    PreferencePage,
  ],
})
export class PreferenceCenterModule {}
