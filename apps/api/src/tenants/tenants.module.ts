import { Module } from '@nestjs/common';
import { DeleteTenantController } from './delete-tenant/delete-tenant.controller';
import { DeleteTenantHandler } from './delete-tenant/delete-tenant.handler';
import { GetTenantController } from './get-tenant/get-tenant.controller';
import { GetTenantHandler } from './get-tenant/get-tenant.handler';
import { ListTenantsController } from './list-tenants/list-tenants.controller';
import { ListTenantsHandler } from './list-tenants/list-tenants.handler';
import { SetTenantController } from './set-tenant/set-tenant.controller';
import { SetTenantHandler } from './set-tenant/set-tenant.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [SetTenantController, GetTenantController, DeleteTenantController, ListTenantsController],
  providers: [SetTenantHandler, GetTenantHandler, DeleteTenantHandler, ListTenantsHandler],
})
export class TenantsModule {}
