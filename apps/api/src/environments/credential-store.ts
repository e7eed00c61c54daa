import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@notify/database';
import { CredentialStore } from '@notify/http';
import { DATABASE } from '@notify/platform';
import { BranchQueries } from '@notify/projections/branches';
import { EnvironmentQueries } from '@notify/projections/environments';

/** Credentials as the environments read model knows them. */
@Injectable()
export class ReadModelCredentialStore implements CredentialStore {
  private readonly queries: EnvironmentQueries;
  private readonly branches: BranchQueries;

  constructor(@Inject(DATABASE) database: Database) {
    this.queries = new EnvironmentQueries(database.dataSource);
    this.branches = new BranchQueries(database.dataSource);
  }

  async firstEnvironment() {
    return (await this.queries.listEnvironments()).sort((a, b) => a.order - b.order)[0]?.slug;
  }

  async branchEnvironment(environment: string, branch: string) {
    return (await this.branches.get(environment, branch))?.environment;
  }

  findApiKey(keyHash: string) {
    return this.queries.findActiveApiKey(keyHash);
  }

  recordApiKeyUse(keyId: string) {
    return this.queries.recordApiKeyUse(keyId);
  }

  findServiceToken(tokenHash: string) {
    return this.queries.findActiveServiceToken(tokenHash);
  }

  async environmentExists(slug: string) {
    return (await this.queries.getEnvironment(slug)) !== undefined;
  }

  async userTokenPolicy(environment: string) {
    const [env, keys] = await Promise.all([this.queries.getEnvironment(environment), this.queries.listSigningKeys(environment, true)]);
    return {
      enhancedSecurityMode: env?.enhancedSecurityMode ?? false,
      signingKeys: keys.map((k) => ({ id: k.id, publicKey: k.publicKey })),
    };
  }
}
