import { Provider } from '@nestjs/common';
import { AudienceDeps, RecipientDeps } from '@notify/application';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';

export const AUDIENCE_DEPS = Symbol('AUDIENCE_DEPS');

export const audienceProviders: Provider[] = [
  { provide: AudienceMemberQueries, inject: [DATABASE], useFactory: (db: Database) => new AudienceMemberQueries(db.dataSource) },
  {
    provide: AUDIENCE_DEPS,
    inject: [RECIPIENT_DEPS, AudienceMemberQueries],
    useFactory: (recipients: RecipientDeps, audienceMembers: AudienceMemberQueries): AudienceDeps => ({ ...recipients, audienceMembers }),
  },
];
