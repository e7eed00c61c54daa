import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { GetSchemaController } from './get-schema/get-schema.controller';
import { GetSchemaHandler } from './get-schema/get-schema.handler';
import { ListSchemasController } from './list-schemas/list-schemas.controller';
import { ListSchemasHandler } from './list-schemas/list-schemas.handler';
import { UpsertSchemaController } from './upsert-schema/upsert-schema.controller';
import { UpsertSchemaHandler } from './upsert-schema/upsert-schema.handler';
import { ValidateSchemaController } from './validate-schema/validate-schema.controller';
import { ValidateSchemaHandler } from './validate-schema/validate-schema.handler';

/** Item schemas (`/v1/schemas`): declared properties of users, tenants and object collections, per environment. */
@Module({
  controllers: [ListSchemasController, GetSchemaController, UpsertSchemaController, ValidateSchemaController],
  providers: [
    { provide: ItemSchemaQueries, inject: [DATABASE], useFactory: (db: Database) => new ItemSchemaQueries(db.dataSource) },
    ListSchemasHandler,
    GetSchemaHandler,
    UpsertSchemaHandler,
    ValidateSchemaHandler,
  ],
})
export class ItemSchemasModule {}
