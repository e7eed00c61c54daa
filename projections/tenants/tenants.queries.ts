import { PageInfoT, PreferenceSetDataT, TenantBrandingT, TenantT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

interface TenantRow extends Record<string, unknown> {
  id: string;
  properties: Record<string, unknown>;
  settings: { branding: TenantBrandingT | null; preference_set: PreferenceSetDataT | null };
  inserted_at: Date;
  updated_at: Date;
}

/** Dark variants a tenant left unset show its light ones. */
export function brandingWithFallbacks(branding: TenantBrandingT | null): TenantBrandingT | null {
  if (!branding) return null;
  return {
    icon_url: branding.icon_url ?? null,
    logo_url: branding.logo_url ?? null,
    primary_color: branding.primary_color ?? null,
    primary_color_contrast: branding.primary_color_contrast ?? null,
    dark_icon_url: branding.dark_icon_url ?? branding.icon_url ?? null,
    dark_logo_url: branding.dark_logo_url ?? branding.logo_url ?? null,
    dark_primary_color: branding.dark_primary_color ?? branding.primary_color ?? null,
    dark_primary_color_contrast: branding.dark_primary_color_contrast ?? branding.primary_color_contrast ?? null,
  };
}

export function toTenant(row: TenantRow): TenantT {
  const { name, created_at, ...custom } = row.properties as { name?: string | null; created_at?: string | null };
  const { branding, preference_set } = row.settings;
  const settings =
    branding || preference_set
      ? { branding: brandingWithFallbacks(branding), preference_set: preference_set ? { id: 'default', ...preference_set } : null }
      : null;
  return {
    __typename: 'Tenant',
    id: row.id,
    ...custom,
    name: name ?? null,
    settings,
    created_at: created_at ?? null,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Every query is scoped by the environment it is given. */
export class TenantQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, id: string): Promise<TenantT | undefined> {
    const rows = await this.db.query<TenantRow[]>(
      'SELECT id, properties, settings, inserted_at, updated_at FROM rm_tenants WHERE environment = $1 AND id = $2',
      [environment, id],
    );
    return rows[0] && toTenant(rows[0]);
  }

  /** The tenant's default preference set, for resolving a recipient's preferences in it. */
  async defaultPreferenceSet(environment: string, id: string): Promise<PreferenceSetDataT | null> {
    const rows = await this.db.query<{ preference_set: PreferenceSetDataT | null }[]>(
      `SELECT settings->'preference_set' AS preference_set FROM rm_tenants WHERE environment = $1 AND id = $2`,
      [environment, id],
    );
    return rows[0]?.preference_set ?? null;
  }

  async list(
    environment: string,
    q: { after?: string; before?: string; page_size: number; tenant_id?: string; name?: string },
  ): Promise<{ entries: TenantT[]; page_info: PageInfoT }> {
    const params: unknown[] = [environment];
    let where = 't.environment = $1';
    if (q.tenant_id !== undefined) {
      params.push(q.tenant_id);
      where += ` AND t.id = $${params.length}`;
    }
    if (q.name !== undefined) {
      params.push(q.name);
      where += ` AND t.name = $${params.length}`;
    }
    const { rows, pageInfo } = await keysetPage<TenantRow>(this.db, {
      select: 't.id, t.properties, t.settings, t.inserted_at, t.updated_at',
      from: `FROM rm_tenants t WHERE ${where}`,
      params,
      order: [
        { expr: 't.inserted_at', type: 'timestamptz' },
        { expr: 't.id', type: 'text' },
      ],
      direction: 'desc',
      pageSize: q.page_size,
      after: q.after,
      before: q.before,
    });
    return { entries: rows.map(toTenant), page_info: pageInfo };
  }
}
