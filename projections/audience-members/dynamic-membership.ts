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
function variablesOf(row: UserRow): Record<string, unknown> {
  const { __typename: _t, ...user } = toUser(row);
  return { recipient: user };
}

interface WindowRow {
  audience: string;
  user: string;
  segment: number;
  from: string | null;
  until: string | null;
}

function windowsOf(audience: string, segments: AudienceSegmentT[], row: UserRow): WindowRow[] {
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

/** A user was identified (its row is already written): its memberships of every dynamic audience, again. */
export async function reevaluateUser(tx: EntityManager, environment: string, userId: string, at: string): Promise<void> {
  const audiences = await tx.query<{ audience_key: string; segments: AudienceSegmentT[] }[]>(
    'SELECT audience_key, segments FROM rm_dynamic_audiences WHERE environment = $1',
    [environment],
  );
  if (audiences.length === 0) return;
  const [user] = await tx.query<UserRow[]>(
    'SELECT id, properties, inserted_at, updated_at FROM rm_users WHERE environment = $1 AND id = $2',
    [environment, userId],
  );
  const rows = user ? audiences.flatMap((a) => windowsOf(a.audience_key, a.segments, user)) : [];
  await tx.query(
    `DELETE FROM rm_dynamic_audience_members WHERE environment = $1 AND user_id = $2
       AND (audience_key, segment) NOT IN (SELECT * FROM unnest($3::text[], $4::int[]))`,
    [environment, userId, rows.map((r) => r.audience), rows.map((r) => r.segment)],
  );
  await upsert(tx, environment, rows, at);
}

export async function removeUser(tx: EntityManager, environment: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM rm_dynamic_audience_members WHERE environment = $1 AND user_id = $2', [environment, userId]);
}

/**
 * An audience's definition changed. A dynamic one is stored and every user of the environment
 * evaluated against it (in pages); any other type has no dynamic members.
 */
export async function defineAudience(
  tx: EntityManager,
  environment: string,
  audienceKey: string,
  content: { type?: unknown; segments?: AudienceSegmentT[] },
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
