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
  enhancedSecurityMode: boolean;
}

export interface SigningKeyRecord {
  id: string;
  algorithm: 'RS256';
  publicKey: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface EnvironmentRow {
  slug: string;
  name: string;
  sort_order: number;
  created_at: Date;
  enhanced_security_mode: boolean;
}

const environmentOf = (r: EnvironmentRow): EnvironmentRecord => ({
  slug: r.slug,
  name: r.name,
  order: r.sort_order,
  createdAt: r.created_at,
  enhancedSecurityMode: r.enhanced_security_mode,
});

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
    const rows = await this.db.query<EnvironmentRow[]>('SELECT slug, name, sort_order, created_at, enhanced_security_mode FROM rm_environments WHERE slug = $1', [slug]);
    return rows[0] && environmentOf(rows[0]);
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    const rows = await this.db.query<EnvironmentRow[]>('SELECT slug, name, sort_order, created_at, enhanced_security_mode FROM rm_environments ORDER BY sort_order, slug');
    return rows.map(environmentOf);
  }

  /** Signing keys of one environment, oldest first; `activeOnly` leaves out revoked ones. */
  async listSigningKeys(environment: string, activeOnly = false): Promise<SigningKeyRecord[]> {
    const rows = await this.db.query<{ id: string; algorithm: 'RS256'; public_key: string; created_at: Date; revoked_at: Date | null }[]>(
      `SELECT id, algorithm, public_key, created_at, revoked_at FROM rm_signing_keys
       WHERE environment = $1 ${activeOnly ? 'AND revoked_at IS NULL' : ''} ORDER BY created_at, id`,
      [environment],
    );
    return rows.map((r) => ({ id: r.id, algorithm: r.algorithm, publicKey: r.public_key, createdAt: r.created_at, revokedAt: r.revoked_at }));
  }
}
