import { Provider } from '@nestjs/common';
import { AudienceDeps, RecipientDeps } from '@notify/application';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';

export const AUDIENCE_DEPS = Symbol('AUDIENCE_DEPS');

export const audienceProviders: Provider[] = [
  { provide: AudienceMemberQueries, inject: [DATABASE], useFactory: (db: Database) => new AudienceMemberQueries(db.dataSource) },
  {
    provide: AUDIENCE_DEPS,
    inject: [RECIPIENT_DEPS, AudienceMemberQueries, DATABASE],
    useFactory: (recipients: RecipientDeps, audienceMembers: AudienceMemberQueries, db: Database): AudienceDeps => ({
      ...recipients,
      audienceMembers,
      // Promoted audiences are defined by the configuration read model (ADR 0170).
      audienceDefinitions: new ConfigResourceQueries(db.dataSource),
    }),
  },
];
