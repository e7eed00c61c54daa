import { EntityManager } from '@notify/projection-runtime';

/** Postgres NOTIFY channel on which api instances hear that a guide changed (ADR 0165). */
export const GUIDE_NOTIFY_CHANNEL = 'notify_guide_changes';

/** Changes older than this are not announced: a rebuild replays them, and no socket waits for those. */
export const GUIDE_NOTIFY_MAX_AGE_MS = 60_000;

/** The NOTIFY payload: which guide of which environment changed (its state is read again). */
export interface GuideNotification {
  /** environment */
  e: string;
  /** guide key (a guide changed) */
  k?: string;
  /** guide group key (the group changed) */
  g?: string;
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
