import { DEFAULT_PREFERENCE_CENTER_CONFIG, PreferenceCategoryT, PreferenceCenterResponseT } from '@notify/contracts';
import { DataSource } from 'typeorm';

interface CategoryRow extends Record<string, unknown> {
  name: string;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

const toCategory = (r: CategoryRow): PreferenceCategoryT => ({
  name: r.name,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  archived_at: r.archived_at?.toISOString() ?? null,
});

export class PreferenceCenterQueries {
  constructor(private readonly db: DataSource) {}

  /** Live (not archived) categories, by name. */
  async categories(): Promise<PreferenceCategoryT[]> {
    const rows = await this.db.query<CategoryRow[]>(
      'SELECT * FROM rm_preference_categories WHERE archived_at IS NULL ORDER BY name COLLATE "C"',
    );
    return rows.map(toCategory);
  }

  async category(name: string): Promise<PreferenceCategoryT | undefined> {
    const rows = await this.db.query<CategoryRow[]>('SELECT * FROM rm_preference_categories WHERE name = $1', [name]);
    return rows[0] && toCategory(rows[0]);
  }

  /** The environment's preference center; the default content, enabled, until it is configured. */
  async center(environment: string): Promise<PreferenceCenterResponseT> {
    const rows = await this.db.query<{ config: PreferenceCenterResponseT['config']; enabled: boolean }[]>(
      'SELECT config, enabled FROM rm_preference_centers WHERE environment = $1',
      [environment],
    );
    return rows[0] ? { config: rows[0].config, enabled: rows[0].enabled } : { config: DEFAULT_PREFERENCE_CENTER_CONFIG, enabled: true };
  }
}
