import { Provider } from '@nestjs/common';
import { EngineLookups, RecipientDeps, ScheduleDeps } from '@notify/application';
import { Database } from '@notify/database';
import { DATABASE, ENGINE_LOOKUPS } from '@notify/platform';
import { ScheduleQueries } from '@notify/projections/schedules';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';

export const SCHEDULE_DEPS = Symbol('SCHEDULE_DEPS');

export const scheduleProviders: Provider[] = [
  { provide: ScheduleQueries, inject: [DATABASE], useFactory: (db: Database) => new ScheduleQueries(db.dataSource) },
  {
    provide: SCHEDULE_DEPS,
    inject: [RECIPIENT_DEPS, ENGINE_LOOKUPS],
    useFactory: (recipients: RecipientDeps, lookups: EngineLookups): ScheduleDeps => ({ recipients, lookups }),
  },
];
