import { BroadcastContentT, BroadcastSendStatusT, MgmtPageInfoT, ResourceErrorT } from '@notify/contracts';
import { keysetPage, LeasedRows } from '@notify/database';
import { DataSource } from 'typeorm';
import { dynamicPairsSql } from '../audience-members/dynamic-tenant-membership';

export interface BroadcastRecord {
  environment: string;
  key: string;
  content: BroadcastContentT;
  sha: string;
  valid: boolean;
  errors: ResourceErrorT[];
  status: BroadcastSendStatusT;
  sendId: string | null;
  sendAt: Date | null;
  /** The time the current (or last) send was scheduled for; null when it was asked for now. */
  scheduledAt: Date | null;
  startedAt: Date | null;
  completedAt: Date | null;
  recipients: number;
  createdAt: Date;
  updatedAt: Date;
}

interface Row extends Record<string, unknown> {
  environment: string;
  key: string;
  content: BroadcastContentT;
  sha: string;
  valid: boolean;
  errors: ResourceErrorT[];
  status: BroadcastSendStatusT;
  send_id: string | null;
  send_at: Date | null;
  scheduled_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  recipients: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'b.environment, b.key, b.content, b.sha, b.valid, b.errors, b.status, b.send_id, b.send_at, b.scheduled_at, b.started_at, b.completed_at, b.recipients, b.created_at, b.updated_at';

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

const toRecord = (r: Row): BroadcastRecord => ({
  environment: r.environment,
  key: r.key,
  content: r.content,
  sha: r.sha,
  valid: r.valid,
  errors: r.errors,
  status: r.status,
  sendId: r.send_id,
  sendAt: date(r.send_at),
  scheduledAt: date(r.scheduled_at),
  startedAt: date(r.started_at),
  completedAt: date(r.completed_at),
  recipients: r.recipients,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** A member to send to: a user, within a tenant or none (''). */
export interface BroadcastRecipient {
  userId: string;
  tenant: string;
}

/** Every query is scoped by the environment it is given. */
export class BroadcastQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, key: string): Promise<BroadcastRecord | undefined> {
    const rows = await this.db.query<Row[]>(`SELECT ${COLUMNS} FROM rm_broadcasts b WHERE b.environment = $1 AND b.key = $2`, [
      environment,
      key,
    ]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** Broadcasts scheduled or sending to an audience, in any of the environments given (oldest first). */
  async pendingFor(
    environments: readonly string[],
    audienceKey: string,
  ): Promise<{ environment: string; key: string; status: BroadcastSendStatusT }[]> {
    return this.db.query(
      `SELECT b.environment, b.key, b.status FROM rm_broadcasts b
        WHERE b.status IN ('scheduled', 'sending') AND b.environment = ANY($1::text[]) AND b.content->>'target_audience_key' = $2
        ORDER BY b.created_at, b.key`,
      [environments, audienceKey],
    );
  }

  /** Newest first, as the reference lists them. */
  async list(
    environment: string,
    page: { after?: string; before?: string; limit: number },
  ): Promise<{ entries: BroadcastRecord[]; page_info: MgmtPageInfoT }> {
    const { rows, pageInfo } = await keysetPage<Row>(this.db, {
      select: COLUMNS,
      from: 'FROM rm_broadcasts b WHERE b.environment = $1',
      params: [environment],
      order: [
        { expr: 'b.created_at', type: 'timestamptz' },
        { expr: 'b.key', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { entries: rows.map(toRecord), page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }

  /**
   * Messages of a send, and its recipients whose runs completed without any (skipped: preferences,
   * conditions, no channel data). Both come from the runs read model alone (a run's
   * `message_enqueued` events are written with its status, in log order), so a read never sees a
   * completed run whose message another read model has not caught up with as a skip.
   */
  async counts(environment: string, key: string, sendId: string): Promise<{ messages: number; skips: number }> {
    const rows = await this.db.query<{ messages: number; skips: number }[]>(
      `WITH runs AS (
         SELECT r.id, r.status,
                (SELECT count(*)::int FROM rm_workflow_recipient_run_events e
                  WHERE e.environment = $1 AND e.run_id = r.id AND e.event = 'message_enqueued') AS messages
           FROM rm_workflow_recipient_runs r
          WHERE r.environment = $1 AND r.workflow = $2 AND r.trigger_source->>'broadcast_send_id' = $3)
       SELECT COALESCE(sum(messages), 0)::int AS messages,
              count(*) FILTER (WHERE status = 'completed' AND messages = 0)::int AS skips
         FROM runs`,
      [environment, key, sendId],
    );
    return rows[0] ?? { messages: 0, skips: 0 };
  }

  /**
   * The next page of recipients after `cursor` (exclusive), in a stable order: an audience's
   * members by (user, tenant), or every user of the environment when no audience is named. A
   * dynamic audience's members are the users whose membership window holds at `at` (ADR 0138),
   * within the tenants its conditions on the tenant hold for, or none (ADR 0202).
   */
  async recipients(
    environment: string,
    audienceKey: string | null,
    cursor: BroadcastRecipient | null,
    limit: number,
    at: Date = new Date(),
    /** Inclusive upper end of the range (a resumed page, ADR 0172). */
    upTo?: BroadcastRecipient,
  ): Promise<BroadcastRecipient[]> {
    const after = cursor ?? { userId: '', tenant: '' };
    // No upper end: the largest possible pair, so the same statements serve both.
    const end = upTo ? [upTo.userId, upTo.tenant] : [null, null];
    let rows: { user_id: string; tenant: string }[];
    if (audienceKey === null)
      rows = await this.db.query(
        `SELECT id AS user_id, '' AS tenant FROM rm_users WHERE environment = $1 AND id > $2 AND ($4::text IS NULL OR id <= $4)
          ORDER BY id LIMIT $3`,
        [environment, after.userId, limit, end[0]],
      );
    else if (await this.isDynamic(environment, audienceKey))
      rows = await this.db.query(
        `SELECT user_id, tenant FROM (${dynamicPairsSql('m.environment = $1 AND m.audience_key = $2 AND m.user_id >= $3', '$6')}) d
          WHERE (user_id, tenant) > ($3, $4) AND ($7::text IS NULL OR (user_id, tenant) <= ($7, $8::text))
          ORDER BY user_id, tenant LIMIT $5`,
        [environment, audienceKey, after.userId, after.tenant, limit, at, end[0], end[1]],
      );
    else
      rows = await this.db.query(
        `SELECT user_id, tenant FROM rm_audience_members WHERE environment = $1 AND audience_key = $2 AND (user_id, tenant) > ($3, $4)
            AND ($6::text IS NULL OR (user_id, tenant) <= ($6, $7::text))
          ORDER BY user_id, tenant LIMIT $5`,
        [environment, audienceKey, after.userId, after.tenant, limit, end[0], end[1]],
      );
    return rows.map((r) => ({ userId: r.user_id, tenant: r.tenant }));
  }

  /** The last of these members in the order pages are read in (the database's, not JavaScript's). */
  async lastOf(members: readonly BroadcastRecipient[]): Promise<BroadcastRecipient> {
    const rows = await this.db.query<{ user_id: string; tenant: string }[]>(
      'SELECT u AS user_id, t AS tenant FROM unnest($1::text[], $2::text[]) AS v(u, t) ORDER BY u DESC, t DESC LIMIT 1',
      [members.map((m) => m.userId), members.map((m) => m.tenant)],
    );
    return { userId: rows[0].user_id, tenant: rows[0].tenant };
  }

  private async isDynamic(environment: string, audienceKey: string): Promise<boolean> {
    const rows = await this.db.query<unknown[]>('SELECT 1 FROM rm_dynamic_audiences WHERE environment = $1 AND audience_key = $2', [
      environment,
      audienceKey,
    ]);
    return rows.length > 0;
  }
}

export interface ClaimedBroadcast {
  environment: string;
  key: string;
  lease: Date;
}

/**
 * The sender's work, leased like the schedules' timers with the same LeasedRows (ADR 0142, ADR
 * 0200): broadcasts whose scheduled send is due and broadcasts being sent. The sender renews its
 * lease between pages and ends it when done; a sender that stops leaves its lease to expire, and
 * another then continues from the cursor in the broadcast's stream.
 */
export class BroadcastTimers {
  private readonly leases: LeasedRows;

  constructor(db: DataSource, leaseMs = 30_000) {
    this.leases = new LeasedRows(
      db,
      { table: 'rm_broadcasts', key: { column: 'key', type: 'text' }, due: 'send_at', pending: "status IN ('scheduled', 'sending')" },
      leaseMs,
    );
  }

  async claim(now: Date, limit: number): Promise<ClaimedBroadcast[]> {
    const { lease, rows } = await this.leases.claim(now, limit);
    return rows.map((r) => ({ environment: r.environment, key: r.key, lease }));
  }

  /** Extends a lease still held; undefined when another sender took the row (this one must stop). */
  async renew(claim: ClaimedBroadcast, now: Date): Promise<ClaimedBroadcast | undefined> {
    const lease = await this.leases.renew(claim, claim.lease, now);
    return lease ? { ...claim, lease } : undefined;
  }

  release(claim: ClaimedBroadcast): Promise<void> {
    return this.leases.release([claim], claim.lease);
  }

  /** When the sender next has work (a leased row when its lease ends). */
  nextDue(): Promise<Date | undefined> {
    return this.leases.nextDue();
  }
}
