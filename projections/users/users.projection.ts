import { announceGuideAudience, recentForGuides } from '../config-resources/guide-notifications';
import { AudienceArchived, AudienceUpserted, CommitPromoted, UserDeleted, UserIdentified } from '@notify/contracts';
import { mergeProperties } from '@notify/domain';
import { defineProjection, EntityManager, ProjectedEventOf } from '@notify/projection-runtime';
import { AudienceContent, defineAudience, DynamicMemberships, UserState } from '../audience-members/dynamic-membership';

type UserEvent = ProjectedEventOf<typeof UserIdentified | typeof UserDeleted>;

const keyOf = (environment: string, userId: string) => `${environment}\u0000${userId}`;

/**
 * A run of user events applied set-wise: the users it touches are read once, folded in memory
 * event by event (exactly as one statement per event would leave them), and written once. Their
 * dynamic audience memberships are followed event by event too, so a membership's added_at is
 * the time of the event that began it whatever the batch boundaries (ADR 0138).
 */
async function applyUserEvents(events: readonly UserEvent[], tx: EntityManager): Promise<void> {
  const keys = [...new Map(events.map((e) => [keyOf(e.environment, e.data.user_id), e] as const)).values()];
  const rows = await tx.query<
    { environment: string; id: string; properties: Record<string, unknown>; inserted_at: Date; updated_at: Date }[]
  >(
    `SELECT environment, id, properties, inserted_at, updated_at FROM rm_users
      WHERE (environment, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [keys.map((e) => e.environment), keys.map((e) => e.data.user_id)],
  );
  const states = new Map<string, UserState | null>(
    rows.map((r) => [
      keyOf(r.environment, r.id),
      { id: r.id, properties: r.properties, inserted_at: r.inserted_at, updated_at: r.updated_at },
    ]),
  );
  const existedBefore = new Set(states.keys());
  const memberships = await DynamicMemberships.load(
    tx,
    keys.map((e) => ({ environment: e.environment, userId: e.data.user_id })),
  );
  for (const event of events) {
    const key = keyOf(event.environment, event.data.user_id);
    if (event.type === 'UserDeleted') {
      states.set(key, null);
      memberships.follow(event.environment, event.data.user_id, null, event.data.deleted_at);
      continue;
    }
    const current = states.get(key);
    const at = new Date(event.data.identified_at);
    const next: UserState = current
      ? { ...current, properties: mergeProperties(current.properties, event.data.properties), updated_at: at }
      : { id: event.data.user_id, properties: mergeProperties({}, event.data.properties), inserted_at: at, updated_at: at };
    states.set(key, next);
    memberships.follow(event.environment, event.data.user_id, next, event.data.identified_at);
  }
  const gone = [...states].filter(([key, s]) => s === null && existedBefore.has(key)).map(([key]) => key.split('\u0000'));
  if (gone.length)
    await tx.query('DELETE FROM rm_users WHERE (environment, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))', [
      gone.map((g) => g[0]),
      gone.map((g) => g[1]),
    ]);
  const present = [...states].filter((entry): entry is [string, UserState] => entry[1] !== null);
  // One JSON document rather than five arrays: the driver does not escape each property set
  // as an array element, and Postgres parses the document once.
  if (present.length)
    await tx.query(
      `INSERT INTO rm_users (environment, id, properties, inserted_at, updated_at)
       SELECT environment, id, properties, inserted_at, updated_at
         FROM jsonb_to_recordset($1::jsonb) AS u(environment text, id text, properties jsonb, inserted_at timestamptz, updated_at timestamptz)
       ON CONFLICT (environment, id) DO UPDATE SET properties = EXCLUDED.properties, inserted_at = EXCLUDED.inserted_at, updated_at = EXCLUDED.updated_at`,
      [
        JSON.stringify(
          present.map(([key, s]) => ({
            environment: key.slice(0, key.indexOf('\u0000')),
            id: s.id,
            properties: s.properties,
            inserted_at: s.inserted_at,
            updated_at: s.updated_at,
          })),
        ),
      ],
    );
  await memberships.write(tx);
}

/**
 * Users, and their membership of dynamic audiences: those follow the user's properties, so they
 * are kept in the same transaction as the user's row (ADR 0138).
 */
export const usersProjection = defineProjection({
  name: 'users',
  // 3: an archived dynamic audience keeps no members (ADR 0171: archived means gone for every reader).
  version: 3,
  tables: ['rm_users', 'rm_dynamic_audiences', 'rm_dynamic_audience_members'],
  events: [UserIdentified, UserDeleted, AudienceUpserted, CommitPromoted, AudienceArchived],
  async applyBatch(events, tx) {
    // Runs of user events go set-wise; an audience definition (rare) is applied where it stands.
    let run: UserEvent[] = [];
    const flush = async () => {
      if (run.length) await applyUserEvents(run, tx);
      run = [];
    };
    for (const event of events) {
      if (event.type === 'UserIdentified' || event.type === 'UserDeleted') {
        run.push(event);
        continue;
      }
      await flush();
      if (event.type === 'AudienceUpserted')
        await defineAudience(tx, event.environment, event.data.key, event.data.content as AudienceContent, event.data.upserted_at);
      else if (event.type === 'AudienceArchived')
        await defineAudience(tx, event.environment, event.data.audience_key, { type: 'archived' }, event.data.archived_at);
      else if (event.data.resource.type === 'audience')
        await defineAudience(
          tx,
          event.environment,
          event.data.resource.identifier,
          event.data.content as AudienceContent,
          event.data.promoted_at,
        );
    }
    await flush();
    // Users whose properties changed: their open guide sockets evaluate targeting again (ADR 0165).
    const byEnvironment = new Map<string, string[]>();
    for (const e of recentForGuides(events))
      if (e.type === 'UserIdentified') byEnvironment.set(e.environment, [...(byEnvironment.get(e.environment) ?? []), e.data.user_id]);
    for (const [environment, ids] of byEnvironment) await announceGuideAudience(tx, environment, ids);
  },
});
