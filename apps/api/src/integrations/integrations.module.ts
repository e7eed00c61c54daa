import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { audienceProviders } from '../audiences/audience-deps';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';
import { DestinationPortsFactory } from './destination-ports';
import { CensusRpcController } from './census/census-rpc.controller';
import { CensusRpcHandler } from './census/census-rpc.handler';
import { HightouchRpcController, HightouchRpcHandler } from './hightouch/hightouch-rpc.controller';

/** Reverse-ETL destinations (Census custom destination, Hightouch embedded destination) over the identify and trigger use cases. */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [CensusRpcController, HightouchRpcController],
  providers: [
    { provide: ConfigResourceQueries, inject: [DATABASE], useFactory: (db: Database) => new ConfigResourceQueries(db.dataSource) },
    { provide: ItemSchemaQueries, inject: [DATABASE], useFactory: (db: Database) => new ItemSchemaQueries(db.dataSource) },
    ...audienceProviders,
    DestinationPortsFactory,
    CensusRpcHandler,
    HightouchRpcHandler,
  ],
})
export class IntegrationsModule {}
