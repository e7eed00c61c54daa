import { Module } from '@nestjs/common';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { RecipientDeps } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { BatchDeduplicator } from '@notify/http';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { BulkOperationQueries } from '@notify/projections/bulk-operations';
import { ChannelDataQueries } from '@notify/projections/channel-data';
import { ChannelQueries } from '@notify/projections/channels';
import { ObjectQueries } from '@notify/projections/objects';
import { PreferenceQueries } from '@notify/projections/preferences';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { TenantQueries } from '@notify/projections/tenants';
import { UserQueries } from '@notify/projections/users';

export const RECIPIENT_DEPS = Symbol('RECIPIENT_DEPS');

const queries = [
  UserQueries,
  ObjectQueries,
  TenantQueries,
  PreferenceQueries,
  ChannelDataQueries,
  SubscriptionQueries,
  BulkOperationQueries,
  ChannelQueries,
];

/**
 * The recipient read models' queries and the ports the recipient use cases take. Not global:
 * each feature module that reads recipients imports it, so its dependencies are stated.
 */
@Module({
  providers: [
    ...queries.map((q) => ({ provide: q, inject: [DATABASE], useFactory: (db: Database) => new q(db.dataSource) })),
    {
      provide: RECIPIENT_DEPS,
      inject: [EVENT_STORE, ChannelQueries, SubscriptionQueries, DATABASE],
      useFactory: (store: EventStore, channels: ChannelQueries, subscriptions: SubscriptionQueries, db: Database): RecipientDeps => ({
        store,
        channels,
        subscriptions,
        itemSchemas: new ItemSchemaQueries(db.dataSource),
      }),
    },
    BatchDeduplicator,
  ],
  exports: [...queries, RECIPIENT_DEPS, BatchDeduplicator],
})
export class RecipientReadModelsModule {}
