import { Module } from '@nestjs/common';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { AddAudienceMembersController } from './add-audience-members/add-audience-members.controller';
import { AddAudienceMembersHandler } from './add-audience-members/add-audience-members.handler';
import { audienceProviders } from './audience-deps';
import { ListAudienceMembersController } from './list-audience-members/list-audience-members.controller';
import { ListAudienceMembersHandler } from './list-audience-members/list-audience-members.handler';
import { RemoveAudienceMembersController } from './remove-audience-members/remove-audience-members.controller';
import { RemoveAudienceMembersHandler } from './remove-audience-members/remove-audience-members.handler';

/** Audience members (public API). */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [AddAudienceMembersController, RemoveAudienceMembersController, ListAudienceMembersController],
  providers: [...audienceProviders, AddAudienceMembersHandler, RemoveAudienceMembersHandler, ListAudienceMembersHandler],
})
export class AudiencesModule {}
