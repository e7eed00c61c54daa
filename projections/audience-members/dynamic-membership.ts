import type { AudienceSegmentT } from '@notify/contracts';
import { membershipWindows } from '@notify/domain';
import type { EntityManager } from 'typeorm';
import { toUser, UserRow } from '../users/users.queries';

/**
 * Dynamic audience membership, kept by the users projection in its own transaction, where the
 * user's properties are exactly those of the event being applied (ADR 0138). A user's rows are
 * the windows of time in which a segment holds for it (`membershipWindows`); membership at a
 * time is a lookup, never an evaluation at send time.
 */

const PAGE = 1000;

/** The user as conditions see it (`recipient`): the same shape the engine gives a run. */
function variablesOf(row: UserRow | UserState): Record<string, unknown> {
  const { __typename: _t, ...user } = toUser(row as UserRow);
  return { recipient: user };
}

interface WindowRow {
  audience: string;
  user: string;
  segment: number;
  from: string | null;
  until: string | null;
}

function windowsOf(audience: string, segments: AudienceSegmentT[], row: UserRow | UserState): WindowRow[] {
  return membershipWindows(segments, variablesOf(row)).map((w) => ({
    audience,
    user: row.id,
    segment: w.segment,
    from: w.from === undefined ? null : new Date(w.from).toISOString(),
    until: w.until === undefined ? null : new Date(w.until).toISOString(),
  }));
}

/** Writes the rows; a membership that already had a row keeps its added_at. */
async function upsert(tx: EntityManager, environment: string, rows: WindowRow[], at: string): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO rm_dynamic_audience_members (environment, audience_key, user_id, segment, member_from, member_until, added_at)
     SELECT $1, a, u, s, f, t, $7 FROM unnest($2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::timestamptz[]) AS v(a, u, s, f, t)
     ON CONFLICT (environment, audience_key, user_id, segment) DO UPDATE SET member_from = EXCLUDED.member_from, member_until = EXCLUDED.member_until`,
    [
      environment,
      rows.map((r) => r.audience),
      rows.map((r) => r.user),
      rows.map((r) => r.segment),
      rows.map((r) => r.from),
      rows.map((r) => r.until),
      at,
    ],
  );
}

/** A user as the users projection holds it (null: deleted). */
export interface UserState {
  id: string;
  properties: Record<string, unknown>;
  inserted_at: Date;
  updated_at: Date;
}

export type AudienceContent = { type?: unknown; segments?: AudienceSegmentT[] };

interface Membership {
  from: string | null;
  until: string | null;
  addedAt: string;
}

const userKey = (environment: string, userId: string) => `${environment}\u0000${userId}`;
const rowKey = (audience: string, segment: number) => `${audience}\u0000${segment}`;

/**
 * The dynamic audience memberships of a batch's users, followed event by event in memory and
 * written once: a membership that holds on keeps its added_at, one that begins takes the time of
 * the event that began it, exactly as applying one event at a time would.
 */
export class DynamicMemberships {
  private readonly touched = new Set<string>();

  private constructor(
    private readonly audiences: Map<string, { audience_key: string; segments: AudienceSegmentT[] }[]>,
    private readonly current: Map<string, Map<string, Membership>>,
  ) {}

  static async load(tx: EntityManager, users: { environment: string; userId: string }[]): Promise<DynamicMemberships> {
    const environments = [...new Set(users.map((u) => u.environment))];
    const defined = await tx.query<{ environment: string; audience_key: string; segments: AudienceSegmentT[] }[]>(
      'SELECT environment, audience_key, segments FROM rm_dynamic_audiences WHERE environment = ANY($1) ORDER BY environment, audience_key',
      [environments],
    );
    const audiences = new Map<string, { audience_key: string; segments: AudienceSegmentT[] }[]>();
    for (const d of defined) audiences.set(d.environment, [...(audiences.get(d.environment) ?? []), d]);
    const current = new Map<string, Map<string, Membership>>();
    const concerned = users.filter((u) => audiences.has(u.environment));
    if (concerned.length) {
      const rows = await tx.query<
        {
          environment: string;
          user_id: string;
          audience_key: string;
          segment: number;
          member_from: Date | null;
          member_until: Date | null;
          added_at: Date;
        }[]
      >(
        `SELECT environment, user_id, audience_key, segment, member_from, member_until, added_at FROM rm_dynamic_audience_members
          WHERE (environment, user_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        [concerned.map((u) => u.environment), concerned.map((u) => u.userId)],
      );
      for (const r of rows) {
        const key = userKey(r.environment, r.user_id);
        const held = current.get(key) ?? new Map<string, Membership>();
        held.set(rowKey(r.audience_key, r.segment), {
          from: r.member_from && new Date(r.member_from).toISOString(),
          until: r.member_until && new Date(r.member_until).toISOString(),
          addedAt: new Date(r.added_at).toISOString(),
        });
        current.set(key, held);
      }
    }
    return new DynamicMemberships(audiences, current);
  }

  /** The user as it now stands (null: deleted) at the time of the event that made it so. */
  follow(environment: string, userId: string, user: UserState | null, at: string): void {
    const audiences = this.audiences.get(environment);
    if (!audiences) return;
    const key = userKey(environment, userId);
    this.touched.add(key);
    const before = this.current.get(key) ?? new Map<string, Membership>();
    const after = new Map<string, Membership>();
    if (user)
      for (const a of audiences)
        for (const w of windowsOf(a.audience_key, a.segments, user)) {
          const k = rowKey(w.audience, w.segment);
          after.set(k, { from: w.from, until: w.until, addedAt: before.get(k)?.addedAt ?? at });
        }
    this.current.set(key, after);
  }

  async write(tx: EntityManager): Promise<void> {
    if (this.touched.size === 0) return;
    const users = [...this.touched].map((k) => k.split('\u0000'));
    await tx.query(
      'DELETE FROM rm_dynamic_audience_members WHERE (environment, user_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))',
      [users.map((u) => u[0]), users.map((u) => u[1])],
    );
    const rows = [...this.touched].flatMap((key) => {
      const [environment, userId] = key.split('\u0000');
      return [...(this.current.get(key) ?? new Map<string, Membership>())].map(([k, m]) => {
        const [audience, segment] = k.split('\u0000');
        return { environment, userId, audience, segment: Number(segment), ...m };
      });
    });
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO rm_dynamic_audience_members (environment, audience_key, user_id, segment, member_from, member_until, added_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[])`,
      [
        rows.map((r) => r.environment),
        rows.map((r) => r.audience),
        rows.map((r) => r.userId),
        rows.map((r) => r.segment),
        rows.map((r) => r.from),
        rows.map((r) => r.until),
        rows.map((r) => r.addedAt),
      ],
    );
  }
}

/**
 * An audience's definition changed. A dynamic one is stored and every user of the environment
 * evaluated against it (in pages); any other type has no dynamic members.
 */
export async function defineAudience(
  tx: EntityManager,
  environment: string,
  audienceKey: string,
  content: AudienceContent,
  at: string,
): Promise<void> {
  if (content.type !== 'dynamic') {
    await tx.query('DELETE FROM rm_dynamic_audiences WHERE environment = $1 AND audience_key = $2', [environment, audienceKey]);
    await tx.query('DELETE FROM rm_dynamic_audience_members WHERE environment = $1 AND audience_key = $2', [environment, audienceKey]);
    return;
  }
  const segments = content.segments ?? [];
  await tx.query(
    `INSERT INTO rm_dynamic_audiences (environment, audience_key, segments) VALUES ($1, $2, $3)
     ON CONFLICT (environment, audience_key) DO UPDATE SET segments = EXCLUDED.segments`,
    [environment, audienceKey, JSON.stringify(segments)],
  );
  // Rows of segments that no longer hold go; the others are written again, keeping added_at.
  const kept: { users: string[]; segments: number[] } = { users: [], segments: [] };
  let after = '';
  for (;;) {
    const users = await tx.query<UserRow[]>(
      'SELECT id, properties, inserted_at, updated_at FROM rm_users WHERE environment = $1 AND id > $2 ORDER BY id LIMIT $3',
      [environment, after, PAGE],
    );
    if (users.length === 0) break;
    after = users[users.length - 1].id;
    const rows = users.flatMap((u) => windowsOf(audienceKey, segments, u));
    await upsert(tx, environment, rows, at);
    for (const r of rows) {
      kept.users.push(r.user);
      kept.segments.push(r.segment);
    }
  }
  await tx.query(
    `DELETE FROM rm_dynamic_audience_members m WHERE m.environment = $1 AND m.audience_key = $2
       AND (m.user_id, m.segment) NOT IN (SELECT * FROM unnest($3::text[], $4::int[]))`,
    [environment, audienceKey, kept.users, kept.segments],
  );
}
