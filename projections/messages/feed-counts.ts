import { EntityManager } from '@notify/projection-runtime';

/** What a message adds to its feed's counters. */
export interface CountedState {
  seen: boolean;
  read: boolean;
  archived: boolean;
}

export interface FeedKey {
  environment: string;
  userId: string;
  channelId: string;
  tenant: string | null;
}

type Counters = [total: number, unread: number, unseen: number, archivedTotal: number, archivedUnread: number, archivedUnseen: number];

function contribution(s: CountedState | null): Counters {
  if (!s) return [0, 0, 0, 0, 0, 0];
  const one: [number, number, number] = [1, s.read ? 0 : 1, s.seen ? 0 : 1];
  return s.archived ? [0, 0, 0, ...one] : [...one, 0, 0, 0];
}

/**
 * Sums counter changes per feed within one projection batch, then writes them (and a new version of each feed touched) in one
 * statement.
 */
export class FeedCountDeltas {
  private readonly deltas = new Map<string, { key: FeedKey; counters: Counters; events: number }>();

  /**
   * A message of the feed went from `before` to `after` (null: did not exist) through `events`
   * events. The feed's version moves by the number of events, so it is the same however the
   * log is cut into batches (a rebuild equals the live table).
   */
  add(key: FeedKey, before: CountedState | null, after: CountedState | null, events: number): void {
    const b = contribution(before);
    const a = contribution(after);
    // A change that leaves the counts as they were still changes the feed (its version).
    const diff = a.map((v, i) => v - b[i]) as Counters;
    const id = JSON.stringify([key.environment, key.userId, key.channelId, key.tenant ?? '']);
    const entry = this.deltas.get(id) ?? { key, counters: [0, 0, 0, 0, 0, 0] as Counters, events: 0 };
    entry.counters = entry.counters.map((v, i) => v + diff[i]) as Counters;
    entry.events += events;
    this.deltas.set(id, entry);
  }

  async write(tx: EntityManager): Promise<void> {
    const statement = this.statement();
    if (statement) await tx.query(statement.sql, statement.params);
  }

  /** The upsert `write` runs, for a caller that sends it with other statements (ADR 0252); undefined when nothing changed. */
  statement(): { sql: string; params: unknown[] } | undefined {
    if (this.deltas.size === 0) return undefined;
    const rows = [...this.deltas.values()].map(({ key, counters, events }) => ({
      environment: key.environment,
      user_id: key.userId,
      channel_id: key.channelId,
      tenant: key.tenant ?? '',
      total: counters[0],
      unread: counters[1],
      unseen: counters[2],
      archived_total: counters[3],
      archived_unread: counters[4],
      archived_unseen: counters[5],
      version: events,
    }));
    // Sorted so concurrent writers (a rebuild beside the live projector) lock rows in one order.
    rows.sort((x, y) =>
      x.environment + x.user_id + x.channel_id + x.tenant < y.environment + y.user_id + y.channel_id + y.tenant ? -1 : 1,
    );
    return {
      sql: `INSERT INTO rm_feed_counts AS c (environment, user_id, channel_id, tenant, total, unread, unseen, archived_total, archived_unread, archived_unseen, version)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(environment text, user_id text, channel_id uuid, tenant text, total int, unread int, unseen int,
         archived_total int, archived_unread int, archived_unseen int, version bigint)
       ON CONFLICT (environment, user_id, channel_id, tenant) DO UPDATE SET
         total = c.total + excluded.total, unread = c.unread + excluded.unread, unseen = c.unseen + excluded.unseen,
         archived_total = c.archived_total + excluded.archived_total, archived_unread = c.archived_unread + excluded.archived_unread,
         archived_unseen = c.archived_unseen + excluded.archived_unseen, version = c.version + excluded.version`,
      params: [JSON.stringify(rows)],
    };
  }
}
