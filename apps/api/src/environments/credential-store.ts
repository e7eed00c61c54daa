import { Inject, Injectable } from '@nestjs/common';
import { Database, GroupedReads } from '@notify/database';
import { CredentialStore } from '@notify/http';
import { DATABASE } from '@notify/platform';
import { BranchQueries } from '@notify/projections/branches';
import { ApiKeyRecord, EnvironmentQueries } from '@notify/projections/environments';
import { MemberQueries } from '@notify/projections/members';

/** Credentials as the environments read model knows them. */
@Injectable()
export class ReadModelCredentialStore implements CredentialStore {
  private readonly queries: EnvironmentQueries;
  private readonly branches: BranchQueries;
  private readonly members: MemberQueries;
  /**
   * Every request reads its key, and the requests that arrive while a read is in flight share
   * the next one (ADR 0277): still a read sent after the request arrived (a key revoked before
   * it is refused, ADR 0136), one statement instead of one per request under load.
   */
  readonly apiKeys: GroupedReads<string, ApiKeyRecord>;

  constructor(@Inject(DATABASE) database: Database) {
    this.queries = new EnvironmentQueries(database.dataSource);
    this.branches = new BranchQueries(database.dataSource);
    this.members = new MemberQueries(database.dataSource);
    this.apiKeys = new GroupedReads((hashes) => this.queries.findActiveApiKeys(hashes));
  }

  async firstEnvironment() {
    return (await this.queries.listEnvironments()).sort((a, b) => a.order - b.order)[0]?.slug;
  }

  async branchEnvironment(environment: string, branch: string) {
    return (await this.branches.get(environment, branch))?.environment;
  }

  findApiKey(keyHash: string) {
    return this.apiKeys.get(keyHash);
  }

  recordApiKeyUse(keyId: string) {
    return this.queries.recordApiKeyUse(keyId);
  }

  findServiceToken(tokenHash: string) {
    return this.queries.findActiveServiceToken(tokenHash);
  }

  async findMember(memberId: string) {
    // A session names a member id; anything else is no member (the column is a uuid).
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(memberId)) return undefined;
    const m = await this.members.get(memberId);
    return m && { memberId: m.id, email: m.email, name: m.name, role: m.role };
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
