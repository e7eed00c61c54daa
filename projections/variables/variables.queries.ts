import { MgmtPageInfoT, SecretValueT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface VariableRecord {
  key: string;
  type: 'public' | 'secret';
  description: string | null;
  value: SecretValueT | null;
  environmentValues: Record<string, SecretValueT>;
  insertedAt: Date;
  updatedAt: Date;
}

interface Row extends Record<string, unknown> {
  key: string;
  type: 'public' | 'secret';
  description: string | null;
  value: SecretValueT | null;
  environment_values: Record<string, SecretValueT>;
  inserted_at: Date;
  updated_at: Date;
}

const toRecord = (r: Row): VariableRecord => ({
  key: r.key,
  type: r.type,
  description: r.description,
  value: r.value,
  environmentValues: r.environment_values,
  insertedAt: r.inserted_at,
  updatedAt: r.updated_at,
});

/** Variables are account-wide; the environment picks which value a read shows (see the api). */
export class VariableQueries {
  constructor(private readonly db: DataSource) {}

  async get(key: string): Promise<VariableRecord | undefined> {
    const rows = await this.db.query<Row[]>('SELECT * FROM rm_variables WHERE key = $1', [key]);
    return rows[0] && toRecord(rows[0]);
  }

  async list(
    page: { after?: string; before?: string; limit: number },
    type?: string,
  ): Promise<{ entries: VariableRecord[]; page_info: MgmtPageInfoT }> {
    const { rows, pageInfo } = await keysetPage<Row>(this.db, {
      select: 'v.*',
      from: `FROM rm_variables v WHERE ($1::text IS NULL OR v.type = $1)`,
      params: [type ?? null],
      order: [{ expr: 'v.key', type: 'text' }],
      direction: 'asc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { entries: rows.map(toRecord), page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }

  /** All values an environment sees, for templates' `vars`: its own value, else the default. */
  async valuesFor(environment: string): Promise<Record<string, SecretValueT | null>> {
    const rows = await this.db.query<Row[]>('SELECT * FROM rm_variables');
    return Object.fromEntries(rows.map((r) => [r.key, r.environment_values[environment] ?? r.value]));
  }
}
