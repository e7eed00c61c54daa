import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@notify/database';
import { DomainError } from '@notify/domain';
import { DATABASE } from '@notify/platform';
import { CommitQueries } from '@notify/projections/commits';
import { EnvironmentQueries } from '@notify/projections/environments';

/** The environments read model for the management routes that name an environment in their path. */
@Injectable()
export class EnvironmentLookup {
  readonly queries: EnvironmentQueries;
  /** When each environment last received a commit. */
  readonly commits: CommitQueries;

  constructor(@Inject(DATABASE) database: Database) {
    this.queries = new EnvironmentQueries(database.dataSource);
    this.commits = new CommitQueries(database.dataSource);
  }

  async require(slug: string) {
    const environment = await this.queries.getEnvironment(slug);
    if (!environment) throw new DomainError('environment_missing', `No environment named ${slug}`, 'not_found');
    return environment;
  }

  async security(slug: string) {
    const environment = await this.require(slug);
    const keys = await this.queries.listSigningKeys(slug, true);
    return { environment: slug, enhanced_security_mode: environment.enhancedSecurityMode, active_signing_keys: keys.length };
  }
}
