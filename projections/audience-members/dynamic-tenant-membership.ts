import type { AudienceSegmentT } from '@notify/contracts';
import { membershipWindows, tenantNeverSet, tenantSegments } from '@notify/domain';
import type { EntityManager } from 'typeorm';
import type { AudienceContent } from './dynamic-membership';

/**
 * The tenant side of dynamic audiences (ADR 0202), kept by the tenants projection in the same
 * transaction as `rm_tenants`, so a tenant's properties are exactly those of the event applied.
 * Only segments with conditions on the tenant have rows; a (user, tenant) pair is a member by a
 * segment when the user's row (users projection) and, for such a segment, the tenant's row hold.
 * The tenant '' is "no tenant" (a run or member without one), evaluated with `tenant` null.
 */

const PAGE = 1000;

interface Rules {
  audience_key: string;
  segments: AudienceSegmentT[];
  tenant_segments: number[];
}

type TenantVariables = Record<string, unknown> | null;

function rowsOf(rules: Rules, tenantId: string, tenant: TenantVariables) {
  return membershipWindows(rules.segments, { tenant }, 'tenant')
    .filter((w) => rules.tenant_segments.includes(w.segment))
    .map((w) => ({
      audience: rules.audience_key,
      tenant: tenantId,
      segment: w.segment,
      from: w.from === undefined ? null : new Date(w.from).toISOString(),
      until: w.until === undefined ? null : new Date(w.until).toISOString(),
    }));
}

async function insert(tx: EntityManager, environment: string, rows: ReturnType<typeof rowsOf>): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO rm_dynamic_audience_tenants (environment, audience_key, segment, tenant_id, member_from, member_until)
     SELECT $1, a, s, t, f, u FROM unnest($2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::timestamptz[]) AS v(a, s, t, f, u)`,
    [
      environment,
      rows.map((r) => r.audience),
      rows.map((r) => r.segment),
      rows.map((r) => r.tenant),
      rows.map((r) => r.from),
      rows.map((r) => r.until),
    ],
  );
}

/**
 * The tenant side of these audiences for a tenant that was never set (no row in rm_tenants): it is
 * evaluated as the tenant `{id}` alone, as the engine sees it in a run (ADR 0232), so `tenant.id`
 * equals its id and every other property is missing (`is_not_set` holds). Rows as
 * rm_dynamic_audience_tenants holds them, for `unsetTenantSideSql`.
 */
export async function unsetTenantSide(
  db: { query<T>(sql: string, params?: unknown[]): Promise<T> },
  environment: string,
  audienceKeys: readonly string[],
  tenantId: string,
): Promise<ReturnType<typeof rowsOf>> {
  const rules = await db.query<Rules[]>(
    'SELECT audience_key, segments, tenant_segments FROM rm_dynamic_audience_tenant_rules WHERE environment = $1 AND audience_key = ANY($2)',
    [environment, audienceKeys],
  );
  return rules.flatMap((r) => rowsOf(r, tenantId, tenantNeverSet(tenantId)));
}

/** A relation of the rows of `unsetTenantSide`, bound to the five array parameters named (from `first`) and the environment's. */
export function unsetTenantSideSql(environmentParam: string, first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `(SELECT ${environmentParam}::text AS environment, a AS audience_key, s AS segment, t AS tenant_id, f AS member_from, u AS member_until
             FROM unnest(${p(0)}::text[], ${p(1)}::int[], ${p(2)}::text[], ${p(3)}::timestamptz[], ${p(4)}::timestamptz[]) AS v(a, s, t, f, u))`;
}

/** The array parameters of `unsetTenantSideSql` for these rows. */
export const unsetTenantSideParams = (rows: ReturnType<typeof rowsOf>) => [
  rows.map((r) => r.audience),
  rows.map((r) => r.segment),
  rows.map((r) => r.tenant),
  rows.map((r) => r.from),
  rows.map((r) => r.until),
];

/** A tenant was set (its properties as they now stand, as conditions see `tenant`) or deleted (null). */
export async function followTenant(tx: EntityManager, environment: string, tenantId: string, tenant: TenantVariables): Promise<void> {
  const rules = await tx.query<Rules[]>(
    'SELECT audience_key, segments, tenant_segments FROM rm_dynamic_audience_tenant_rules WHERE environment = $1',
    [environment],
  );
  if (rules.length === 0) return;
  await tx.query('DELETE FROM rm_dynamic_audience_tenants WHERE environment = $1 AND tenant_id = $2', [environment, tenantId]);
  if (tenant)
    await insert(
      tx,
      environment,
      rules.flatMap((r) => rowsOf(r, tenantId, tenant)),
    );
}

/**
 * An audience's definition changed: its tenant side is evaluated again for "no tenant" and for
 * every tenant of the environment (in pages), or dropped when it has no conditions on the tenant.
 */
export async function defineAudienceTenants<R extends { id: string }>(
  tx: EntityManager,
  environment: string,
  audienceKey: string,
  content: AudienceContent,
  /** A row of rm_tenants (id, properties, settings, inserted_at, updated_at) as conditions see `tenant`. */
  toVariables: (row: R) => Record<string, unknown>,
): Promise<void> {
  await tx.query('DELETE FROM rm_dynamic_audience_tenants WHERE environment = $1 AND audience_key = $2', [environment, audienceKey]);
  const segments = content.type === 'dynamic' ? (content.segments ?? []) : [];
  const indexes = tenantSegments(segments);
  if (indexes.length === 0) {
    await tx.query('DELETE FROM rm_dynamic_audience_tenant_rules WHERE environment = $1 AND audience_key = $2', [environment, audienceKey]);
    return;
  }
  await tx.query(
    `INSERT INTO rm_dynamic_audience_tenant_rules (environment, audience_key, segments, tenant_segments) VALUES ($1, $2, $3, $4)
     ON CONFLICT (environment, audience_key) DO UPDATE SET segments = EXCLUDED.segments, tenant_segments = EXCLUDED.tenant_segments`,
    [environment, audienceKey, JSON.stringify(segments), indexes],
  );
  const rules: Rules = { audience_key: audienceKey, segments, tenant_segments: indexes };
  await insert(tx, environment, rowsOf(rules, '', null));
  let after = '';
  for (;;) {
    const tenants = await tx.query<R[]>(
      'SELECT id, properties, settings, inserted_at, updated_at FROM rm_tenants WHERE environment = $1 AND id > $2 ORDER BY id LIMIT $3',
      [environment, after, PAGE],
    );
    if (tenants.length === 0) break;
    after = tenants[tenants.length - 1].id;
    await insert(
      tx,
      environment,
      tenants.flatMap((t) => rowsOf(rules, t.id, toVariables(t))),
    );
  }
}

/**
 * Each user side's row (m) with its audience's rules (r) and, for a segment with conditions on the
 * tenant, the tenant side's rows (t) that pass `tenantOn`.
 */
const segmentSides = (tenantSide: string, tenantOn: string) =>
  `rm_dynamic_audience_members m
            LEFT JOIN rm_dynamic_audience_tenant_rules r
              ON r.environment = m.environment AND r.audience_key = m.audience_key AND m.segment = ANY(r.tenant_segments)
            LEFT JOIN ${tenantSide} t
              ON r.audience_key IS NOT NULL AND t.environment = m.environment AND t.audience_key = m.audience_key AND t.segment = m.segment
                 AND ${tenantOn}`;

/**
 * SQL of the (user, tenant) pairs a dynamic audience holds at the instant in `atParam`: the user
 * side's rows, each segment with conditions on the tenant joined with the tenants its tenant side
 * holds for (tenant '' for segments without: they hold in every tenant and in none). Columns:
 * environment, audience_key, user_id, tenant, added_at (when the pair's membership began).
 * With `tenantParam`, only the pairs that count in that tenant's context (null: none).
 */
export function dynamicPairsSql(
  where: string,
  atParam: string,
  tenantParam?: string,
  /** The tenant side's relation (columns of rm_dynamic_audience_tenants); a tenant never set is given as rows of its own. */
  tenantSide = 'rm_dynamic_audience_tenants',
): string {
  const holds = (t: string) =>
    `(${t}.member_from IS NULL OR ${t}.member_from <= ${atParam}::timestamptz) AND (${t}.member_until IS NULL OR ${t}.member_until > ${atParam}::timestamptz)`;
  return `SELECT m.environment, m.audience_key, m.user_id, COALESCE(t.tenant_id, '') AS tenant,
                 min(GREATEST(m.added_at, COALESCE(m.member_from, m.added_at), COALESCE(t.member_from, m.added_at))) AS added_at
            FROM ${segmentSides(tenantSide, `${holds('t')}${tenantParam ? ` AND t.tenant_id = COALESCE(${tenantParam}::text, '')` : ''}`)}
           WHERE ${where} AND ${holds('m')} AND (r.audience_key IS NULL OR t.tenant_id IS NOT NULL)
           GROUP BY m.environment, m.audience_key, m.user_id, COALESCE(t.tenant_id, '')`;
}

/**
 * SQL of every window of the (user, tenant) pairs of dynamic audiences, held now or not: per
 * segment, the user side's window meeting the tenant side's (for a segment with conditions on the
 * tenant), starting no earlier than the user side's row was added. Columns: environment,
 * audience_key, user_id, tenant, member_from and member_until (ms since the epoch, null: open),
 * for `membershipSpan` to find the stretch a pair's membership holds in without a break.
 */
export function dynamicWindowsSql(where: string): string {
  return `SELECT m.environment, m.audience_key, m.user_id, COALESCE(t.tenant_id, '') AS tenant,
                 (extract(epoch FROM GREATEST(m.added_at, m.member_from, t.member_from)) * 1000)::float8 AS member_from,
                 (extract(epoch FROM LEAST(m.member_until, t.member_until)) * 1000)::float8 AS member_until
            FROM ${segmentSides('rm_dynamic_audience_tenants', 'TRUE')}
           WHERE ${where} AND (r.audience_key IS NULL OR t.tenant_id IS NOT NULL)`;
}
