import { Provider } from '@nestjs/common';
import { EventHistory } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { RecipientActivityQueries } from '@notify/projections/workflow-runs';

export const EVENT_HISTORY = Symbol('EVENT_HISTORY');

export const eventHistoryProvider: Provider = {
  provide: EVENT_HISTORY,
  inject: [EVENT_STORE, DATABASE],
  useFactory: (store: EventStore, database: Database) => new EventHistory(store, new RecipientActivityQueries(database.dataSource)),
};
