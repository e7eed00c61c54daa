import { RecordedEvent } from '@notify/eventstore';
import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { Client } from 'pg';
import { ScheduleTimers } from './schedule-timers';
import { schedulesProjection } from './schedules.projection';

/**
 * The firer's row updates against a writer that takes the same rows in the other order, as the
 * schedules projection does inside its batch transaction: Postgres breaks the cycle by aborting
 * one side, and the firer's side runs its statement again instead of failing the batch.
 */
const describeOnPostgres = describeWith('postgres');

describeOnPostgres('schedule timers on postgres: a deadlock with the projection is retried, not raised', () => {
  let db: TestDatabase;
  let other: Client;
  const ENV = 'test';
  const A = '00000000-0000-4000-8000-000000000001';
  const B = '00000000-0000-4000-8000-000000000002';
  const due = new Date('2030-01-01T10:00:00.000Z');

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    other = new Client({ connectionString: db.url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await db.close();
  });

  it('advances and releases both rows while another transaction holds one and then asks for the other', async () => {
    for (const id of [A, B])
      await db.database.dataSource.query(
        `INSERT INTO rm_schedules (environment, id, workflow, recipient_type, recipient_collection, recipient_id, repeats, count_from,
                                   time_zone, next_occurrence, next_occurrence_at, revision, inserted_at, updated_at)
         VALUES ($1, $2::uuid, 'w', 'user', '$users', $2::text, '[]', $3, 'UTC', '2030-01-01T10:00', $3, 1, $3, $3)`,
        [ENV, id, due],
      );
    const timers = new ScheduleTimers(db.database.dataSource);
    let deadlockSide: 'firer' | 'other' | undefined;
    let otherDone: Promise<void> | undefined;
    const claimed = timers.claim(due, 10, async (rows) => {
      // The other writer takes B, then (once the firer waits for B holding A) asks for A.
      await other.query('BEGIN');
      await other.query('UPDATE rm_schedules SET updated_at = now() WHERE environment = $1 AND id = $2', [ENV, B]);
      otherDone = (async () => {
        await waitFor(
          async () =>
            (
              await db.database.dataSource.query<{ n: string }[]>(
                `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%WITH v AS%'`,
              )
            )[0].n !== '0',
          'the firer waiting for the row the other writer holds',
        );
        try {
          await other.query('UPDATE rm_schedules SET updated_at = now() WHERE environment = $1 AND id = $2', [ENV, A]);
          await other.query('COMMIT');
          deadlockSide = 'firer';
        } catch (error) {
          expect((error as { code?: string }).code).toBe('40P01');
          await other.query('ROLLBACK');
          deadlockSide = 'other';
        }
      })();
      return rows.map((r) => ({
        environment: r.environment,
        id: r.id,
        lastOccurrence: '2030-01-01T10:00',
        lastOccurrenceAt: due.toISOString(),
        next: { local: '2030-01-01T11:00', at: '2030-01-01T11:00:00.000Z' },
        revision: 2,
        timeZone: r.timeZone,
      }));
    });
    await expect(claimed).resolves.toBe(2);
    await otherDone;
    expect(['firer', 'other']).toContain(deadlockSide);
    const rows = await db.database.dataSource.query<
      { id: string; next_occurrence: string; claimed_until: Date | null; revision: number }[]
    >('SELECT id, next_occurrence, claimed_until, revision FROM rm_schedules ORDER BY id');
    expect(rows).toEqual([
      { id: A, next_occurrence: '2030-01-01T11:00', claimed_until: null, revision: 2 },
      { id: B, next_occurrence: '2030-01-01T11:00', claimed_until: null, revision: 2 },
    ]);
  });

  it('takes the rows of a batch in key order: a firer holding the first row and asking for the second never deadlocks with it', async () => {
    const ids = ['00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000012'];
    const [first, second] = ids;
    for (const id of ids)
      await db.database.dataSource.query(
        `INSERT INTO rm_schedules (environment, id, workflow, recipient_type, recipient_collection, recipient_id, repeats, count_from,
                                   time_zone, next_occurrence, next_occurrence_at, revision, inserted_at, updated_at)
         VALUES ($1, $2::uuid, 'w', 'user', '$users', $2::text, '[]', $3, 'UTC', '2030-01-01T10:00', $3, 1, $3, $3)`,
        [ENV, id, due],
      );
    const updated = (id: string, revision: number): RecordedEvent =>
      ({
        id: `e-${id}`,
        type: 'ScheduleUpdated',
        streamId: `schedule-${ENV}-${id}`,
        revision,
        globalPosition: BigInt(revision),
        position: String(revision),
        data: { schedule_id: id, updated_at: '2030-01-01T09:00:00.000Z', data: { v: revision } },
        metadata: { environment: ENV, schema_version: 1 },
        createdAt: new Date(0),
      }) as unknown as RecordedEvent;

    // The firer's side: it has locked the first row (ScheduleTimers locks in key order).
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM rm_schedules WHERE environment = $1 AND id = $2 FOR UPDATE', [ENV, first]);
    // The batch names the second row before the first.
    const batch = db.database.dataSource.transaction((tx) => schedulesProjection('UTC').apply([updated(second, 5), updated(first, 6)], tx));
    await waitFor(
      async () =>
        (
          await db.database.dataSource.query<{ n: string }[]>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%rm_schedules%'`,
          )
        )[0].n !== '0',
      'the batch waiting for the first row',
    );
    // Had the batch taken the second row in event order, this would close a cycle (40P01).
    await other.query('SELECT 1 FROM rm_schedules WHERE environment = $1 AND id = $2 FOR UPDATE', [ENV, second]);
    await other.query('COMMIT');
    await batch;
    const rows = await db.database.dataSource.query<{ id: string; data: unknown; revision: number }[]>(
      'SELECT id, data, revision FROM rm_schedules WHERE id = ANY($1::uuid[]) ORDER BY id',
      [ids],
    );
    expect(rows).toEqual([
      { id: first, data: { v: 6 }, revision: 6 },
      { id: second, data: { v: 5 }, revision: 5 },
    ]);
  });

  const insertDue = (id: string, zone = 'UTC') =>
    db.database.dataSource.query(
      `INSERT INTO rm_schedules (environment, id, workflow, recipient_type, recipient_collection, recipient_id, repeats, count_from,
                                 time_zone, next_occurrence, next_occurrence_at, revision, inserted_at, updated_at)
       VALUES ($1, $2::uuid, 'w', 'user', '$users', $2::text, '[{"frequency":"hourly","interval":1,"days":null,"day_of_month":null,"hours":null,"minutes":0}]',
               $3, $4, '2030-01-01T10:00', $3, 1, $3, $3)`,
      [ENV, id, due, zone],
    );
  const row = (id: string) =>
    db.database.dataSource
      .query<
        {
          time_zone: string;
          last_occurrence: string | null;
          next_occurrence: string | null;
          claimed_until: Date | null;
          revision: number;
        }[]
      >(
        'SELECT time_zone, last_occurrence, next_occurrence, claimed_until, revision FROM rm_schedules WHERE environment = $1 AND id = $2',
        [ENV, id],
      )
      .then((rows) => rows[0]);

  it("does not move a row whose zone changed while the firer decided (the recipient's new zone stands); the lease ends", async () => {
    const id = '00000000-0000-4000-8000-000000000021';
    await insertDue(id);
    const timers = new ScheduleTimers(db.database.dataSource);
    const claimed = await timers.claim(due, 10, async (rows) => {
      // The recipient's time zone changes meanwhile (the projection's rezone).
      await db.database.dataSource.query(
        `UPDATE rm_schedules SET time_zone = 'Europe/Berlin', next_occurrence = '2030-01-01T11:00' WHERE environment = $1 AND id = $2`,
        [ENV, id],
      );
      return rows
        .filter((r) => r.id === id)
        .map((r) => ({
          environment: r.environment,
          id: r.id,
          lastOccurrence: '2030-01-01T10:00',
          lastOccurrenceAt: due.toISOString(),
          next: { local: '2030-01-01T11:00', at: '2030-01-01T11:00:00.000Z' },
          revision: 2,
          timeZone: r.timeZone,
        }));
    });
    expect(claimed).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toEqual({
      time_zone: 'Europe/Berlin',
      last_occurrence: null,
      next_occurrence: '2030-01-01T11:00',
      claimed_until: null,
      revision: 1,
    });
  });

  it('OccurrenceFired leaves a row the firer already moved past it, and updates one the firer moved without it', async () => {
    const fired = (id: string, revision: number, occurrence: string): RecordedEvent =>
      ({
        id: `f-${id}-${revision}`,
        type: 'OccurrenceFired',
        streamId: `schedule-${ENV}-${id}`,
        revision,
        globalPosition: BigInt(100 + revision),
        position: String(100 + revision),
        data: {
          schedule_id: id,
          occurrence,
          due_at: `${occurrence}:00.000Z`,
          time_zone: 'UTC',
          status: 'triggered',
          reason: null,
          workflow_run_id: '00000000-0000-4000-8000-0000000000ff',
          fired_at: `${occurrence}:01.000Z`,
        },
        metadata: { environment: ENV, schema_version: 1 },
        createdAt: new Date(0),
      }) as unknown as RecordedEvent;
    const moved = '00000000-0000-4000-8000-000000000031';
    const stale = '00000000-0000-4000-8000-000000000032';
    await insertDue(moved);
    await insertDue(stale);
    // The firer moved `moved` with the occurrence (revision 2, last 10:00, next deliberately
    // marked so a recomputation would show); it moved `stale` to revision 2 having decided nothing
    // new itself (its last occurrence still the row's older one).
    await db.database.dataSource.query(
      `UPDATE rm_schedules SET revision = 2, last_occurrence = '2030-01-01T10:00', last_occurrence_at = $3, next_occurrence = 'as-the-firer-left-it'
        WHERE environment = $1 AND id = $2`,
      [ENV, moved, due],
    );
    await db.database.dataSource.query(
      `UPDATE rm_schedules SET revision = 2, last_occurrence = '2030-01-01T09:00', next_occurrence = 'as-the-firer-left-it' WHERE environment = $1 AND id = $2`,
      [ENV, stale],
    );
    await db.database.dataSource.transaction((tx) =>
      schedulesProjection('UTC').apply([fired(moved, 2, '2030-01-01T10:00'), fired(stale, 2, '2030-01-01T10:00')], tx),
    );
    expect(await row(moved)).toMatchObject({ last_occurrence: '2030-01-01T10:00', next_occurrence: 'as-the-firer-left-it', revision: 2 });
    expect(await row(stale)).toMatchObject({ last_occurrence: '2030-01-01T10:00', next_occurrence: '2030-01-01T11:00', revision: 2 });
  });
});
