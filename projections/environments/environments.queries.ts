import { keysetPage, preparedQuery } from '@notify/database';
import { DataSource } from 'typeorm';

export interface ApiKeyRecord {
  keyId: string;
  environment: string;
  kind: 'secret' | 'publishable';
  /** Where the credentials stood when the key was read (rm_credentials_version; ADR 0136). */
  credentialsVersion: string;
  /** Where configuration stood (rm_config_version; ADR 0217), same statement; '' when never set. */
  configVersion: string;
}

/** A key as its management lists it (never its secret: only the hash is stored). */
export interface ApiKeyDetails {
  keyId: string;
  environment: string;
  kind: 'secret' | 'publishable';
  name: string | null;
  hint: string;
  issuedAt: Date;
  revokedAt: Date | null;
  replacedBy: string | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  /** `expiring`: rotated, still accepted until `expiresAt`. */
  status: 'active' | 'expiring' | 'expired' | 'revoked';
}

interface ApiKeyRow {
  key_id: string;
  environment: string;
  kind: 'secret' | 'publishable';
  name: string | null;
  hint: string;
  issued_at: Date;
  revoked_at: Date | null;
  replaced_by: string | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  expired: boolean;
}

export interface EnvironmentRecord {
  slug: string;
  name: string;
  order: number;
  createdAt: Date;
  /** The last change to the environment itself (created, security mode). */
  updatedAt: Date;
  owner: 'system' | 'user';
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
  updated_at: Date | null;
  owner: 'system' | 'user';
  enhanced_security_mode: boolean;
}

const ENVIRONMENT_COLUMNS = 'slug, name, sort_order, created_at, updated_at, owner, enhanced_security_mode';

const environmentOf = (r: EnvironmentRow): EnvironmentRecord => ({
  slug: r.slug,
  name: r.name,
  order: r.sort_order,
  createdAt: r.created_at,
  updatedAt: r.updated_at ?? r.created_at,
  owner: r.owner,
  enhancedSecurityMode: r.enhanced_security_mode,
});

/**
 * Lookups by key hash are the one read that cannot take an environment argument: finding the
 * environment is what they are for.
 */
export class EnvironmentQueries {
  constructor(private readonly db: DataSource) {}

  /**
   * The active keys among these hashes, by hash, with the credentials and configuration versions
   * read in the same statement: one snapshot for all of them (the api's reads grouped under load,
   * ADR 0277).
   */
  async findActiveApiKeys(keyHashes: readonly string[]): Promise<Map<string, ApiKeyRecord>> {
    const rows = await preparedQuery<{
      key_hash: string;
      key_id: string;
      environment: string;
      kind: 'secret' | 'publishable';
      version: string | null;
      config_version: string | null;
    }>(
      this.db,
      `SELECT key_hash, key_id, environment, kind, (SELECT position FROM rm_credentials_version WHERE id = 1) AS version,
         (SELECT position FROM rm_config_version WHERE id = 1) AS config_version
       FROM rm_api_keys WHERE key_hash = ANY($1::text[]) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [keyHashes],
    );
    return new Map(
      rows.map((row) => [
        row.key_hash,
        {
          keyId: row.key_id,
          environment: row.environment,
          kind: row.kind,
          credentialsVersion: row.version ?? '',
          configVersion: row.config_version ?? '',
        },
      ]),
    );
  }

  /** Notes that a key authenticated a request; at most one write a minute per key. */
  async recordApiKeyUse(keyId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO api_key_usage (key_id, last_used_at) VALUES ($1, now())
       ON CONFLICT (key_id) DO UPDATE SET last_used_at = EXCLUDED.last_used_at
       WHERE api_key_usage.last_used_at < EXCLUDED.last_used_at - interval '1 minute'`,
      [keyId],
    );
  }

  /** The keys of an environment, oldest first (revoked and expired ones too unless `activeOnly`). */
  async listApiKeys(environment: string, options: { activeOnly?: boolean; keyId?: string } = {}): Promise<ApiKeyDetails[]> {
    const params: unknown[] = [environment];
    let where = 'k.environment = $1';
    if (options.activeOnly) where += ' AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())';
    if (options.keyId) {
      params.push(options.keyId);
      where += ` AND k.key_id = $${params.length}`;
    }
    const rows = await this.db.query<ApiKeyRow[]>(
      `SELECT k.key_id, k.environment, k.kind, k.name, k.hint, k.issued_at, k.revoked_at, k.replaced_by, k.expires_at,
              u.last_used_at, (k.expires_at IS NOT NULL AND k.expires_at <= now()) AS expired
       FROM rm_api_keys k LEFT JOIN api_key_usage u ON u.key_id = k.key_id
       WHERE ${where} ORDER BY k.issued_at, k.key_id`,
      params,
    );
    return rows.map((r) => ({
      keyId: r.key_id,
      environment: r.environment,
      kind: r.kind,
      name: r.name,
      hint: r.hint,
      issuedAt: r.issued_at,
      revokedAt: r.revoked_at,
      replacedBy: r.replaced_by,
      expiresAt: r.expires_at,
      lastUsedAt: r.last_used_at,
      status: r.revoked_at ? 'revoked' : r.expired ? 'expired' : r.expires_at ? 'expiring' : 'active',
    }));
  }

  async findActiveServiceToken(tokenHash: string): Promise<{ tokenId: string } | undefined> {
    const rows = await this.db.query<{ token_id: string }[]>(
      'SELECT token_id FROM rm_service_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
      [tokenHash],
    );
    return rows[0] && { tokenId: rows[0].token_id };
  }

  /** The name of an active service token (whoami). */
  async serviceTokenName(tokenId: string): Promise<string | undefined> {
    const rows = await this.db.query<{ name: string }[]>('SELECT name FROM rm_service_tokens WHERE token_id = $1 AND revoked_at IS NULL', [
      tokenId,
    ]);
    return rows[0]?.name;
  }

  async getEnvironment(slug: string): Promise<EnvironmentRecord | undefined> {
    const rows = await this.db.query<EnvironmentRow[]>(`SELECT ${ENVIRONMENT_COLUMNS} FROM rm_environments WHERE slug = $1`, [slug]);
    return rows[0] && environmentOf(rows[0]);
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    const rows = await this.db.query<EnvironmentRow[]>(`SELECT ${ENVIRONMENT_COLUMNS} FROM rm_environments ORDER BY sort_order, slug`);
    return rows.map(environmentOf);
  }

  /** A page of environments in their order (the management API's list). */
  async pageEnvironments(page: {
    after?: string;
    before?: string;
    limit: number;
  }): Promise<{ entries: EnvironmentRecord[]; page_info: { after: string | null; before: string | null; page_size: number } }> {
    const { rows, pageInfo } = await keysetPage<EnvironmentRow & Record<string, unknown>>(this.db, {
      select: ENVIRONMENT_COLUMNS,
      from: 'FROM rm_environments WHERE true',
      params: [],
      order: [
        { expr: 'sort_order', type: 'integer' },
        { expr: 'slug', type: 'text' },
      ],
      direction: 'asc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return {
      entries: rows.map(environmentOf),
      page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size },
    };
  }

  /** Signing keys of one environment, oldest first; `activeOnly` leaves out revoked ones. */
  async listSigningKeys(environment: string, activeOnly = false): Promise<SigningKeyRecord[]> {
    const rows = await this.db.query<{ id: string; algorithm: 'RS256'; public_key: string; created_at: Date; revoked_at: Date | null }[]>(
      `SELECT id, algorithm, public_key, created_at, revoked_at FROM rm_signing_keys
       WHERE environment = $1 ${activeOnly ? 'AND revoked_at IS NULL' : ''} ORDER BY created_at, id`,
      [environment],
    );
    return rows.map((r) => ({
      id: r.id,
      algorithm: r.algorithm,
      publicKey: r.public_key,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    }));
  }
}
