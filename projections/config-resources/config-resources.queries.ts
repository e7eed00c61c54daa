import { MgmtPageInfoT, ResourceErrorT } from '@notify/contracts';
import { ResourceType } from '@notify/domain';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface ResourceRecord {
  environment: string;
  type: ResourceType;
  identifier: string;
  /** The version shown: the latest one, or the committed one when uncommitted changes are hidden. */
  content: Record<string, unknown>;
  sha: string;
  valid: boolean;
  errors: ResourceErrorT[];
  active: boolean;
  /** Guides only: the bounds of a scheduled activation. */
  activeFrom: Date | null;
  activeUntil: Date | null;
  hasUncommittedChanges: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Set on archived workflows, layouts and partials, which only lists asking for them show (ADR 0225). */
  archivedAt?: Date | null;
}

interface Row extends Record<string, unknown> {
  environment: string;
  resource_type: ResourceType;
  identifier: string;
  draft: Record<string, unknown>;
  draft_sha: string;
  valid: boolean;
  errors: ResourceErrorT[];
  committed: Record<string, unknown> | null;
  committed_sha: string | null;
  active: boolean;
  active_from: Date | null;
  active_until: Date | null;
  created_at: Date;
  updated_at: Date;
  archived_at?: Date | null;
}

export interface ReadView {
  /** Only committed versions: a resource never committed is not there. */
  committedOnly?: boolean;
  /** Lists only: archived resources left out (the default), listed too, or alone (ADR 0225). */
  archived?: 'exclude' | 'include' | 'only';
}

const ARCHIVED_COLUMNS =
  'environment, resource_type, identifier, draft, draft_sha, valid, errors, committed, committed_sha, false AS active, NULL::timestamptz AS active_from, NULL::timestamptz AS active_until, created_at, updated_at, archived_at';
const SERVED_COLUMNS =
  'environment, resource_type, identifier, draft, draft_sha, valid, errors, committed, committed_sha, active, active_from, active_until, created_at, updated_at, NULL::timestamptz AS archived_at';
/**
 * Static audiences created by members calls (create_audience), each with the content and sha a
 * definition of it would have: `{type, name, description}` with the key as the name, the sha256 of
 * that content's canonical JSON, as an upsert of the same content computes (ADR 0270).
 */
const CREATED = `(SELECT c.environment, c.audience_key, c.created_at, x.content, x.sha FROM rm_created_audiences c
  CROSS JOIN LATERAL (SELECT jsonb_build_object('type', 'static', 'name', c.audience_key, 'description', NULL) AS content,
    encode(sha256(convert_to('{"description":null,"name":' || to_json(c.audience_key)::text || ',"type":"static"}', 'UTF8')), 'hex') AS sha) x)`;

/**
 * The served audiences: the defined ones, where a members call created the audience first with its
 * creation time and, until a version is committed, the created form as the committed one (it was
 * shown as committed before the definition); and the created ones nothing defines, as committed
 * audiences (ADR 0270).
 */
const SERVED_AUDIENCES = `(SELECT r.environment, r.resource_type, r.identifier, r.draft, r.draft_sha, r.valid, r.errors,
    CASE WHEN r.committed_sha IS NULL AND c.audience_key IS NOT NULL THEN c.content ELSE r.committed END AS committed,
    COALESCE(r.committed_sha, c.sha) AS committed_sha, r.active, r.active_from, r.active_until,
    LEAST(r.created_at, c.created_at) AS created_at, r.updated_at, NULL::timestamptz AS archived_at
  FROM rm_config_resources r
  LEFT JOIN ${CREATED} c ON c.environment = r.environment AND c.audience_key = r.identifier
  WHERE r.resource_type = 'audience'
  UNION ALL
  SELECT c.environment, 'audience'::text, c.audience_key, c.content, c.sha, true, '[]'::jsonb, c.content, c.sha, false,
    NULL::timestamptz, NULL::timestamptz, c.created_at, c.created_at, NULL::timestamptz
  FROM ${CREATED} c
  WHERE NOT EXISTS (SELECT 1 FROM rm_config_resources r
    WHERE r.environment = c.environment AND r.resource_type = 'audience' AND r.identifier = c.audience_key))`;

const LISTED: Record<NonNullable<ReadView['archived']>, string> = {
  exclude: 'rm_config_resources',
  only: `(SELECT ${ARCHIVED_COLUMNS} FROM rm_archived_config_resources)`,
  include: `(SELECT ${SERVED_COLUMNS} FROM rm_config_resources UNION ALL SELECT ${ARCHIVED_COLUMNS} FROM rm_archived_config_resources)`,
};

/** What a listing reads: for audiences, those created by members calls too (ADR 0270). */
function listed(type: ResourceType, archived: NonNullable<ReadView['archived']>): string {
  if (type !== 'audience' || archived === 'only') return LISTED[archived];
  if (archived === 'exclude') return SERVED_AUDIENCES;
  return `(SELECT * FROM ${SERVED_AUDIENCES} s UNION ALL SELECT ${ARCHIVED_COLUMNS} FROM rm_archived_config_resources)`;
}

const toRecord = (row: Row, view: ReadView): ResourceRecord => {
  const committed = view.committedOnly;
  return {
    environment: row.environment,
    type: row.resource_type,
    identifier: row.identifier,
    content: committed ? row.committed! : row.draft,
    sha: committed ? row.committed_sha! : row.draft_sha,
    // A committed version was valid when it was committed (invalid resources are never committed).
    valid: committed ? true : row.valid,
    errors: committed ? [] : row.errors,
    active: row.active,
    activeFrom: row.active_from,
    activeUntil: row.active_until,
    hasUncommittedChanges: row.committed_sha !== row.draft_sha,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archivedAt: row.archived_at ?? null,
  };
};

const COLUMNS =
  'r.environment, r.resource_type, r.identifier, r.draft, r.draft_sha, r.valid, r.errors, r.committed, r.committed_sha, r.active, r.active_from, r.active_until, r.created_at, r.updated_at';

/** Versioned resources of one environment; every query takes it. */
export class ConfigResourceQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, type: ResourceType, identifier: string, view: ReadView = {}): Promise<ResourceRecord | undefined> {
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM ${type === 'audience' ? SERVED_AUDIENCES : 'rm_config_resources'} r
       WHERE r.environment = $1 AND r.resource_type = $2 AND r.identifier = $3 ${view.committedOnly ? 'AND r.committed_sha IS NOT NULL' : ''}`,
      [environment, type, identifier],
    );
    return rows[0] && toRecord(rows[0], view);
  }

  /** The type of the audience this environment serves (upserted, promoted or taken by a branch); archived ones are gone. */
  async audienceDefinition(environment: string, audienceKey: string): Promise<{ type: string } | undefined> {
    const rows = await this.db.query<{ type: string | null }[]>(
      `SELECT COALESCE(draft->>'type', 'static') AS type FROM rm_config_resources WHERE environment = $1 AND resource_type = 'audience' AND identifier = $2`,
      [environment, audienceKey],
    );
    return rows[0] ? { type: rows[0].type ?? 'static' } : undefined;
  }

  /** When the resource of this key was archived here, if it was and has not been upserted since (ADR 0225). */
  async archivedAt(environment: string, type: ResourceType, identifier: string): Promise<Date | undefined> {
    const rows = await this.db.query<{ archived_at: Date }[]>(
      'SELECT archived_at FROM rm_archived_config_resources WHERE environment = $1 AND resource_type = $2 AND identifier = $3',
      [environment, type, identifier],
    );
    return rows[0]?.archived_at;
  }

  async exists(environment: string, type: ResourceType, identifier: string): Promise<boolean> {
    const rows = await this.db.query(
      'SELECT 1 FROM rm_config_resources WHERE environment = $1 AND resource_type = $2 AND identifier = $3',
      [environment, type, identifier],
    );
    return rows.length > 0;
  }

  /** Every served workflow's latest and committed versions, for checks across all of them (ADR 0225). */
  async workflowVersions(environment: string): Promise<{ identifier: string; versions: Record<string, unknown>[] }[]> {
    const rows = await this.db.query<{ identifier: string; draft: Record<string, unknown>; committed: Record<string, unknown> | null }[]>(
      "SELECT identifier, draft, committed FROM rm_config_resources WHERE environment = $1 AND resource_type = 'workflow' ORDER BY identifier",
      [environment],
    );
    return rows.map((r) => ({ identifier: r.identifier, versions: r.committed ? [r.draft, r.committed] : [r.draft] }));
  }

  /** By identifier; `where` narrows on the shown version's content, e.g. `{ locale_code: 'en' }`. */
  async list(
    environment: string,
    type: ResourceType,
    page: { after?: string; before?: string; limit: number },
    view: ReadView = {},
    where: Record<string, string | undefined> = {},
    /** Only resources whose shown version carries this tag in its `tags`. */
    tag?: string,
  ): Promise<{ entries: ResourceRecord[]; page_info: MgmtPageInfoT }> {
    const params: unknown[] = [environment, type];
    const column = view.committedOnly ? 'r.committed' : 'r.draft';
    let conditions = view.committedOnly ? ' AND r.committed_sha IS NOT NULL' : '';
    for (const [field, value] of Object.entries(where)) {
      if (value === undefined) continue;
      params.push(field, value);
      conditions += ` AND coalesce(${column}->>$${params.length - 1}, '') = $${params.length}`;
    }
    if (tag !== undefined) {
      params.push(tag);
      conditions += ` AND coalesce(${column}->'tags', '[]'::jsonb) ? $${params.length}`;
    }
    const archived = view.archived ?? 'exclude';
    const { rows, pageInfo } = await keysetPage<Row>(this.db, {
      select: archived === 'exclude' ? COLUMNS : `${COLUMNS}, r.archived_at`,
      from: `FROM ${listed(type, archived)} r WHERE r.environment = $1 AND r.resource_type = $2${conditions}`,
      params,
      order: [{ expr: 'r.identifier', type: 'text' }],
      direction: 'asc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return {
      entries: rows.map((r) => toRecord(r, view)),
      page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size },
    };
  }

  /** Resources whose latest version is not the committed one, oldest change first. */
  async uncommitted(environment: string, filter: { types?: ResourceType[]; identifier?: string } = {}): Promise<ResourceRecord[]> {
    const params: unknown[] = [environment];
    let conditions = '';
    if (filter.types?.length) {
      params.push(filter.types);
      conditions += ` AND r.resource_type = ANY($${params.length})`;
    }
    if (filter.identifier) {
      params.push(filter.identifier);
      conditions += ` AND r.identifier = $${params.length}`;
    }
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM rm_config_resources r WHERE r.environment = $1 AND r.committed_sha IS DISTINCT FROM r.draft_sha${conditions} ORDER BY r.updated_at, r.resource_type, r.identifier`,
      params,
    );
    return rows.map((r) => toRecord(r, {}));
  }

  /** Every version committed in an environment, with its content: what a branch made off it starts with. */
  async committedVersions(
    environment: string,
  ): Promise<{ type: ResourceType; identifier: string; sha: string; content: Record<string, unknown> }[]> {
    const rows = await this.db.query<{ type: ResourceType; identifier: string; sha: string; content: Record<string, unknown> }[]>(
      `SELECT resource_type AS type, identifier, committed_sha AS sha, committed AS content FROM rm_config_resources
       WHERE environment = $1 AND committed_sha IS NOT NULL ORDER BY resource_type, identifier`,
      [environment],
    );
    return rows;
  }

  /** `type:identifier` -> the latest version's sha, for every resource of an environment. */
  async latestShas(environment: string): Promise<Record<string, string>> {
    const rows = await this.db.query<{ ref: string; sha: string }[]>(
      "SELECT resource_type || ':' || identifier AS ref, draft_sha AS sha FROM rm_config_resources WHERE environment = $1",
      [environment],
    );
    return Object.fromEntries(rows.map((r) => [r.ref, r.sha]));
  }

  /** Versions are keyed by content hash, not by environment: the same content is the same version wherever it is. */
  async version(type: ResourceType, identifier: string, sha: string): Promise<Record<string, unknown> | undefined> {
    const rows = await this.db.query<{ content: Record<string, unknown> }[]>(
      'SELECT content FROM rm_config_versions WHERE resource_type = $1 AND identifier = $2 AND sha = $3',
      [type, identifier, sha],
    );
    return rows[0]?.content;
  }
}
