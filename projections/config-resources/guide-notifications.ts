import { EntityManager } from '@notify/projection-runtime';

/** Postgres NOTIFY channel on which api instances hear that a guide changed (ADR 0165). */
export const GUIDE_NOTIFY_CHANNEL = 'notify_guide_changes';

/** Changes older than this are not announced: a rebuild replays them, and no socket waits for those. */
export const GUIDE_NOTIFY_MAX_AGE_MS = 60_000;

/** Largest NOTIFY payload sent (Postgres refuses more than 8,000 bytes). */
export const GUIDE_NOTIFY_MAX_BYTES = 7000;

/** The NOTIFY payload: which guide of which environment changed (its state is read again). */
export interface GuideNotification {
  /** environment */
  e: string;
  /** guide key (a guide changed) */
  k?: string;
  /** guide group key (the group changed) */
  g?: string;
  /** users whose properties or audience memberships changed (their guides are evaluated again) */
  u?: string[];
}

/**
 * Queues the announcement in the projection's transaction: delivered on commit only, so a
 * listener that hears it reads the guide as changed. A replay announces nothing.
 */
export async function announceGuideChange(
  tx: EntityManager,
  event: { environment: string; createdAt: Date },
  change: { key: string } | { group: string },
) {
  if (event.createdAt.getTime() < Date.now() - GUIDE_NOTIFY_MAX_AGE_MS) return;
  const note: GuideNotification = 'key' in change ? { e: event.environment, k: change.key } : { e: event.environment, g: change.group };
  const payload = JSON.stringify(note);
  await tx.query(`SELECT pg_notify($1, $2) WHERE coalesce(current_setting('notify.replay', true), '') <> 'on'`, [
    GUIDE_NOTIFY_CHANNEL,
    payload,
  ]);
}

/**
 * Announces users whose targeting inputs changed (properties, audience memberships), so that
 * sockets joined for them evaluate their guides again (ADR 0165). In payloads under the NOTIFY
 * limit; recent changes only, and nothing in a replay.
 */
export async function announceGuideAudience(tx: EntityManager, environment: string, userIds: readonly string[]): Promise<void> {
  const payloads: string[] = [];
  // Sizes are added up id by id (the payload is `{"e":...,"u":[...]}`), not measured again per id.
  const base = Buffer.byteLength(JSON.stringify({ e: environment, u: [] } satisfies GuideNotification));
  let batch: string[] = [];
  let bytes = base;
  const flush = () => {
    if (batch.length) payloads.push(JSON.stringify({ e: environment, u: batch } satisfies GuideNotification));
    batch = [];
    bytes = base;
  };
  for (const id of new Set(userIds)) {
    const size = Buffer.byteLength(JSON.stringify(id));
    if (base + size > GUIDE_NOTIFY_MAX_BYTES) continue;
    if (bytes + size + (batch.length ? 1 : 0) > GUIDE_NOTIFY_MAX_BYTES) flush();
    bytes += size + (batch.length ? 1 : 0);
    batch.push(id);
  }
  flush();
  if (payloads.length === 0) return;
  await tx.query(
    `SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p WHERE coalesce(current_setting('notify.replay', true), '') <> 'on'`,
    [GUIDE_NOTIFY_CHANNEL, payloads],
  );
}

/** The recent ones among events: older ones are a rebuild's replay, which nobody waits for. */
export const recentForGuides = <E extends { createdAt: Date }>(events: readonly E[]): E[] => {
  const since = Date.now() - GUIDE_NOTIFY_MAX_AGE_MS;
  return events.filter((e) => e.createdAt.getTime() >= since);
};
