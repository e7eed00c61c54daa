import { Module } from '@nestjs/common';
import { AudiencesModule } from '../audiences/audiences.module';
import { BulkOperationsModule } from '../bulk-operations/bulk-operations.module';
import { ChannelDataModule } from '../channel-data/channel-data.module';
import { ObjectsModule } from '../objects/objects.module';
import { PreferencesModule } from '../preferences/preferences.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { TenantsModule } from '../tenants/tenants.module';
import { RecipientReadModelsModule } from './recipient-read-models.module';

/** Everything about recipients besides the users slice itself. */
@Module({
  imports: [
    RecipientReadModelsModule,
    ObjectsModule,
    TenantsModule,
    PreferencesModule,
    ChannelDataModule,
    SubscriptionsModule,
    BulkOperationsModule,
    AudiencesModule,
  ],
})
export class RecipientsModule {}
