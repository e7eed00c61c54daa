import { DataSource } from 'typeorm';

export interface ApiKeyRecord {
  keyId: string;
  environment: string;
  kind: 'secret' | 'publishable';
}

export interface EnvironmentRecord {
  slug: string;
  name: string;
  order: number;
  createdAt: Date;
}

/**
 * Lookups by key hash are the one read that cannot take an environment argument: finding the
 * environment is what they are for.
 */
export class EnvironmentQueries {
  constructor(private readonly db: DataSource) {}

  async findActiveApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const rows = await this.db.query<{ key_id: string; environment: string; kind: 'secret' | 'publishable' }[]>(
      'SELECT key_id, environment, kind FROM rm_api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return rows[0] && { keyId: rows[0].key_id, environment: rows[0].environment, kind: rows[0].kind };
  }

  async findActiveServiceToken(tokenHash: string): Promise<{ tokenId: string } | undefined> {
    const rows = await this.db.query<{ token_id: string }[]>(
      'SELECT token_id FROM rm_service_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
      [tokenHash],
    );
    return rows[0] && { tokenId: rows[0].token_id };
  }

  async getEnvironment(slug: string): Promise<EnvironmentRecord | undefined> {
    const rows = await this.db.query<{ slug: string; name: string; sort_order: number; created_at: Date }[]>(
      'SELECT slug, name, sort_order, created_at FROM rm_environments WHERE slug = $1',
      [slug],
    );
    return rows[0] && { slug: rows[0].slug, name: rows[0].name, order: rows[0].sort_order, createdAt: rows[0].created_at };
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    const rows = await this.db.query<{ slug: string; name: string; sort_order: number; created_at: Date }[]>(
      'SELECT slug, name, sort_order, created_at FROM rm_environments ORDER BY sort_order, slug',
    );
    return rows.map((r) => ({ slug: r.slug, name: r.name, order: r.sort_order, createdAt: r.created_at }));
  }
}
