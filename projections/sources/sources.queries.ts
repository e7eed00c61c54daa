import { MgmtPageInfoT, PlannedSourceActionT, SourceMappingT, SourceSettingsT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface SourceRecord {
  environment: string;
  key: string;
  name: string;
  customImageUrl: string | null;
  settings: SourceSettingsT;
  mappings: SourceMappingT[];
  createdAt: Date;
  updatedAt: Date;
}

export interface SourceLogRecord {
  id: string;
  sourceKey: string;
  event: string;
  payload: { body: unknown; headers: Record<string, string> };
  actions: PlannedSourceActionT[];
  results: { id: string; status: 'ok' | 'error'; result: Record<string, unknown> | null }[] | null;
  insertedAt: Date;
}

interface SourceRow extends Record<string, unknown> {
  environment: string;
  key: string;
  name: string;
  custom_image_url: string | null;
  settings: SourceSettingsT;
  mappings: SourceMappingT[];
  created_at: Date;
  updated_at: Date;
}

interface LogRow extends Record<string, unknown> {
  id: string;
  source_key: string;
  event: string;
  payload: SourceLogRecord['payload'];
  actions: PlannedSourceActionT[];
  results: SourceLogRecord['results'];
  inserted_at: Date;
}

const SOURCE_COLUMNS = 's.environment, s.key, s.name, s.custom_image_url, s.settings, s.mappings, s.created_at, s.updated_at';
const LOG_COLUMNS = 'l.id, l.source_key, l.event, l.payload, l.actions, l.results, l.inserted_at';

const toSource = (r: SourceRow): SourceRecord => ({
  environment: r.environment,
  key: r.key,
  name: r.name,
  customImageUrl: r.custom_image_url,
  settings: r.settings,
  mappings: r.mappings,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const toLog = (r: LogRow): SourceLogRecord => ({
  id: r.id,
  sourceKey: r.source_key,
  event: r.event,
  payload: r.payload,
  actions: r.actions,
  results: r.results,
  insertedAt: new Date(r.inserted_at),
});

export interface SourceLogFilter {
  startingAt?: string;
  endingAt?: string;
  event?: string;
  id?: string;
}

/** Source reads; every query but the account-wide list is scoped by the environment it is given. */
export class SourceQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, key: string): Promise<SourceRecord | undefined> {
    const rows = await this.db.query<SourceRow[]>(`SELECT ${SOURCE_COLUMNS} FROM rm_sources s WHERE s.environment = $1 AND s.key = $2`, [
      environment,
      key,
    ]);
    return rows[0] ? toSource(rows[0]) : undefined;
  }

  /** A source's rows in every environment it is configured in (sources are named once for the account). */
  async allEnvironments(key: string): Promise<SourceRecord[]> {
    const rows = await this.db.query<SourceRow[]>(`SELECT ${SOURCE_COLUMNS} FROM rm_sources s WHERE s.key = $1 ORDER BY s.environment`, [
      key,
    ]);
    return rows.map(toSource);
  }

  /** Every source's rows, in one environment or all of them (at most `limit` sources). */
  async list(environment: string | null, limit = 500): Promise<SourceRecord[]> {
    const rows = await this.db.query<SourceRow[]>(
      `SELECT ${SOURCE_COLUMNS} FROM rm_sources s
        WHERE s.key IN (SELECT DISTINCT key FROM rm_sources WHERE $1::text IS NULL OR environment = $1 ORDER BY key LIMIT $2)
          AND ($1::text IS NULL OR s.environment = $1)
        ORDER BY s.key, s.environment`,
      [environment, limit],
    );
    return rows.map(toSource);
  }

  async activity(environment: string, key: string): Promise<{ count: number; last: Date | null }> {
    const rows = await this.db.query<{ count: number; last: Date | null }[]>(
      `SELECT count(*)::int AS count, max(inserted_at) AS last FROM rm_source_logs WHERE environment = $1 AND source_key = $2`,
      [environment, key],
    );
    return { count: rows[0]?.count ?? 0, last: rows[0]?.last ? new Date(rows[0].last) : null };
  }

  /** The distinct event types received, most recently received first. */
  async events(environment: string, key: string): Promise<{ event: string; lastReceivedAt: Date }[]> {
    const rows = await this.db.query<{ event: string; last: Date }[]>(
      `SELECT event, max(inserted_at) AS last FROM rm_source_logs WHERE environment = $1 AND source_key = $2
        GROUP BY event ORDER BY last DESC, event LIMIT 1000`,
      [environment, key],
    );
    return rows.map((r) => ({ event: r.event, lastReceivedAt: new Date(r.last) }));
  }

  async log(environment: string, id: string): Promise<SourceLogRecord | undefined> {
    const rows = await this.db.query<LogRow[]>(`SELECT ${LOG_COLUMNS} FROM rm_source_logs l WHERE l.environment = $1 AND l.id = $2`, [
      environment,
      id,
    ]);
    return rows[0] ? toLog(rows[0]) : undefined;
  }

  /** Newest first. */
  async logs(
    environment: string,
    key: string,
    filter: SourceLogFilter,
    page: { after?: string; before?: string; limit: number },
  ): Promise<{ entries: SourceLogRecord[]; page_info: MgmtPageInfoT }> {
    const params: unknown[] = [environment, key];
    const where = ['l.environment = $1', 'l.source_key = $2'];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (filter.startingAt) add((p) => `l.inserted_at >= ${p}::timestamptz`, filter.startingAt);
    if (filter.endingAt) add((p) => `l.inserted_at <= ${p}::timestamptz`, filter.endingAt);
    if (filter.event) add((p) => `l.event = ${p}`, filter.event);
    if (filter.id) {
      if (!/^[0-9a-f-]{36}$/i.test(filter.id)) return { entries: [], page_info: { after: null, before: null, page_size: page.limit } };
      add((p) => `l.id = ${p}::uuid`, filter.id);
    }
    const { rows, pageInfo } = await keysetPage<LogRow>(this.db, {
      select: LOG_COLUMNS,
      from: `FROM rm_source_logs l WHERE ${where.join(' AND ')}`,
      params,
      order: [
        { expr: 'l.inserted_at', type: 'timestamptz' },
        { expr: 'l.id', type: 'uuid' },
      ],
      direction: 'desc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { entries: rows.map(toLog), page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }
}
