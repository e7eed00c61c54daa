import { Module } from '@nestjs/common';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { MsTeamsLookupsController } from './ms-teams-lookups.controller';
import { ProviderLookupDepsFactory } from './provider-lookup-deps';
import { SlackLookupsController } from './slack-lookups.controller';

/** Provider lookups: Slack and Microsoft Teams reads for a connected recipient (issue 21). */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [SlackLookupsController, MsTeamsLookupsController],
  providers: [ProviderLookupDepsFactory],
})
export class ProvidersModule {}
