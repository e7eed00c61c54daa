import { Module } from '@nestjs/common';
import { RecipientExistence } from '../recipients/recipient-exists';
import { DeletePreferenceSetController } from './delete-preference-set/delete-preference-set.controller';
import { DeletePreferenceSetHandler } from './delete-preference-set/delete-preference-set.handler';
import { GetPreferenceSetController } from './get-preference-set/get-preference-set.controller';
import { GetPreferenceSetHandler } from './get-preference-set/get-preference-set.handler';
import { ListPreferenceSetsController } from './list-preference-sets/list-preference-sets.controller';
import { ListPreferenceSetsHandler } from './list-preference-sets/list-preference-sets.handler';
import { SetPreferenceSetController } from './set-preference-set/set-preference-set.controller';
import { SetPreferenceSetHandler } from './set-preference-set/set-preference-set.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { UpdatePreferencePartController } from './update-preference-part/update-preference-part.controller';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [
    ListPreferenceSetsController,
    GetPreferenceSetController,
    SetPreferenceSetController,
    DeletePreferenceSetController,
    UpdatePreferencePartController,
  ],
  providers: [ListPreferenceSetsHandler, GetPreferenceSetHandler, SetPreferenceSetHandler, DeletePreferenceSetHandler, RecipientExistence],
})
export class PreferencesModule {}
