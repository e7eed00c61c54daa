import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyT } from '@notify/contracts';
import { Database } from '@notify/database';
import { DomainError } from '@notify/domain';
import { DATABASE } from '@notify/platform';
import { ApiKeyDetails, EnvironmentQueries } from '@notify/projections/environments';

export const presentApiKey = (k: ApiKeyDetails): ApiKeyT => ({
  id: k.keyId,
  environment: k.environment,
  kind: k.kind,
  name: k.name,
  hint: k.hint,
  status: k.status,
  created_at: k.issuedAt.toISOString(),
  expires_at: k.expiresAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
  replaced_by: k.replacedBy,
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
});

/** The API keys read model for the management routes. */
@Injectable()
export class ApiKeyLookup {
  readonly queries: EnvironmentQueries;

  constructor(@Inject(DATABASE) database: Database) {
    this.queries = new EnvironmentQueries(database.dataSource);
  }

  async list(environment: string, activeOnly: boolean): Promise<ApiKeyT[]> {
    return (await this.queries.listApiKeys(environment, { activeOnly })).map(presentApiKey);
  }

  async require(environment: string, keyId: string): Promise<ApiKeyT> {
    const [key] = await this.queries.listApiKeys(environment, { keyId });
    if (!key) throw new DomainError('api_key_missing', 'No such key in this environment', 'not_found');
    return presentApiKey(key);
  }
}
