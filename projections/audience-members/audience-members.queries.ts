import { AudienceMemberT, PageInfoT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { membershipSpan } from '@notify/domain';
import { DataSource } from 'typeorm';
import { toUser } from '../users/users.queries';
import {
  dynamicPairsSql,
  dynamicWindowsSql,
  unsetTenantSide,
  unsetTenantSideParams,
  unsetTenantSideSql,
} from './dynamic-tenant-membership';

interface Row extends Record<string, unknown> {
  user_id: string;
  tenant: string;
  added_at: Date;
  u_properties: Record<string, unknown> | null;
  u_inserted_at: Date | null;
  u_updated_at: Date | null;
}

/** A dynamic membership's window as `dynamicWindowsSql` gives it (ms since the epoch; null: open). */
interface DynamicWindow {
  from: number | null;
  until: number | null;
}

export interface MemberRef {
  userId: string;
  tenant: string | null;
}

export const memberKey = (m: MemberRef) => `${m.userId}\u0000${m.tenant ?? ''}`;

function toMember(row: Row): AudienceMemberT {
  const addedAt = new Date(row.added_at);
  const user = toUser({
    id: row.user_id,
    properties: row.u_properties ?? {},
    inserted_at: row.u_inserted_at ?? addedAt,
    updated_at: new Date(row.u_updated_at ?? addedAt),
  });
  return {
    __typename: 'AudienceMember',
    added_at: addedAt.toISOString(),
    user_id: row.user_id,
    user,
    tenant: row.tenant === '' ? null : row.tenant,
  };
}

/** Every query is scoped by the environment it is given. */
export class AudienceMemberQueries {
  constructor(private readonly db: DataSource) {}

  /** An audience's members, newest first, with their users joined at read time. */
  async list(
    environment: string,
    audienceKey: string,
    page: { after?: string; before?: string; page_size: number },
    at: Date = new Date(),
  ): Promise<{ entries: AudienceMemberT[]; page_info: PageInfoT }> {
    // A dynamic audience's members are those whose window holds now (ADR 0138), within the
    // tenants its conditions on the tenant hold for (ADR 0202; none otherwise), added when their
    // membership began.
    const dynamic = await this.isDynamic(environment, audienceKey);
    const members = dynamic ? `(${dynamicPairsSql('m.environment = $1 AND m.audience_key = $2', '$3')})` : 'rm_audience_members';
    const { rows, pageInfo } = await keysetPage<Row>(this.db, {
      select: 'm.user_id, m.tenant, m.added_at, u.properties AS u_properties, u.inserted_at AS u_inserted_at, u.updated_at AS u_updated_at',
      from: `FROM ${members} m LEFT JOIN rm_users u ON u.environment = m.environment AND u.id = m.user_id
             WHERE m.environment = $1 ${dynamic ? '' : 'AND m.audience_key = $2'}`,
      params: dynamic ? [environment, audienceKey, at] : [environment, audienceKey],
      order: [
        { expr: 'm.added_at', type: 'timestamptz' },
        { expr: 'm.user_id', type: 'text' },
        { expr: 'm.tenant', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
    });
    return { entries: rows.map(toMember), page_info: pageInfo };
  }

  /** Which of the given members the audience holds, by memberKey. */
  async present(environment: string, audienceKey: string, members: MemberRef[]): Promise<Set<string>> {
    if (members.length === 0) return new Set();
    const rows = await this.db.query<{ user_id: string; tenant: string }[]>(
      `SELECT user_id, tenant FROM rm_audience_members WHERE environment = $1 AND audience_key = $2
         AND jsonb_build_array(user_id, tenant) IN (SELECT value FROM jsonb_array_elements($3::jsonb))`,
      [environment, audienceKey, JSON.stringify(members.map((m) => [m.userId, m.tenant ?? '']))],
    );
    return new Set(rows.map((r) => memberKey({ userId: r.user_id, tenant: r.tenant || null })));
  }

  /**
   * The keys of the given audiences this user belongs to in a tenant's context: memberships of
   * no tenant always count, a tenant's only within that tenant (ADR 0170); a dynamic segment with
   * conditions on the tenant counts where the tenant (or none) meets them (ADR 0202).
   */
  async audiencesOf(
    environment: string,
    userId: string,
    audienceKeys: readonly string[],
    tenant: string | null,
    at: Date = new Date(),
  ): Promise<string[]> {
    if (audienceKeys.length === 0) return [];
    // A tenant never set meets tenant conditions as `{id}` alone (ADR 0232): its side is computed here.
    const unset =
      tenant !== null &&
      (await this.db.query<unknown[]>('SELECT 1 FROM rm_tenants WHERE environment = $1 AND id = $2', [environment, tenant])).length === 0;
    const side = unset ? await unsetTenantSide(this.db, environment, audienceKeys, tenant) : [];
    const rows = await this.db.query<{ audience_key: string }[]>(
      `SELECT audience_key FROM rm_audience_members WHERE environment = $1 AND user_id = $2 AND audience_key = ANY($3)
         AND tenant IN ('', coalesce($4::text, ''))
       UNION
       SELECT audience_key FROM (${dynamicPairsSql(
         'm.environment = $1 AND m.user_id = $2 AND m.audience_key = ANY($3)',
         '$5',
         '$4',
         unset ? unsetTenantSideSql('$1', 6) : undefined,
       )}) d`,
      [environment, userId, audienceKeys, tenant, at, ...(unset ? unsetTenantSideParams(side) : [])],
    );
    return rows.map((r) => r.audience_key);
  }

  /**
   * Every audience a user belongs to at `at`: static memberships (one per tenant context) and
   * dynamic ones whose window holds then (one answer per audience and tenant context). A dynamic
   * one is answered with the stretch it holds in without a break: from when it began (added_at)
   * until time alone ends it (null: it does not), over all its segments' windows.
   */
  async membershipsOf(
    environment: string,
    userId: string,
    at: Date,
  ): Promise<{ audience_key: string; kind: 'static' | 'dynamic'; tenant: string | null; added_at: Date; until: Date | null }[]> {
    const rows = await this.db.query<
      { audience_key: string; kind: 'static' | 'dynamic'; tenant: string | null; added_at: Date | null; windows: DynamicWindow[] | null }[]
    >(
      `SELECT audience_key, 'static' AS kind, nullif(tenant, '') AS tenant, added_at, NULL::jsonb AS windows
         FROM rm_audience_members WHERE environment = $1 AND user_id = $2
       UNION ALL
       SELECT audience_key, 'dynamic', nullif(tenant, ''), NULL::timestamptz, jsonb_agg(jsonb_build_object('from', member_from, 'until', member_until))
         FROM (${dynamicWindowsSql('m.environment = $1 AND m.user_id = $2')}) w
        GROUP BY audience_key, tenant
       HAVING bool_or((member_from IS NULL OR member_from <= $3::float8) AND (member_until IS NULL OR member_until > $3::float8))
       ORDER BY 1, 3 NULLS FIRST
       LIMIT 1000`,
      [environment, userId, at.getTime()],
    );
    return rows.flatMap(({ windows, ...r }) => {
      if (!windows) return [{ ...r, added_at: r.added_at!, until: null }];
      const span = membershipSpan(
        windows.map((w) => ({ from: w.from ?? undefined, until: w.until ?? undefined })),
        at.getTime(),
      );
      // A window never starts before its row was added, so a span that holds has a start.
      if (!span || span.from === undefined) return [];
      return [{ ...r, added_at: new Date(span.from), until: span.until === undefined ? null : new Date(span.until) }];
    });
  }

  /** Whether the audience's current definition is dynamic (its members are then computed, not added). */
  async isDynamic(environment: string, audienceKey: string): Promise<boolean> {
    const rows = await this.db.query<unknown[]>('SELECT 1 FROM rm_dynamic_audiences WHERE environment = $1 AND audience_key = $2', [
      environment,
      audienceKey,
    ]);
    return rows.length > 0;
  }
}
