import { Provider } from '@nestjs/common';
import { AccountSettingsDeps, SECRET_BOX, SecretBox } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { EnvironmentQueries } from '@notify/projections/environments';

export const ACCOUNT_SETTINGS_DEPS = Symbol('ACCOUNT_SETTINGS_DEPS');

/** The ports the account-wide settings use cases (channels, variables) take. */
export const accountSettingsDeps: Provider = {
  provide: ACCOUNT_SETTINGS_DEPS,
  inject: [EVENT_STORE, SECRET_BOX, DATABASE],
  useFactory: (store: EventStore, box: SecretBox, database: Database): AccountSettingsDeps => {
    const environments = new EnvironmentQueries(database.dataSource);
    return { store, box, environmentExists: async (slug: string) => !!(await environments.getEnvironment(slug)) };
  },
};
