import {
  ObjectDeleted,
  ObjectSet,
  OccurrenceFired,
  RecipientRefT,
  ScheduleCreated,
  ScheduleDeleted,
  ScheduleUpdated,
  UserDeleted,
  UserIdentified,
} from '@notify/contracts';
import { returnedRows } from '@notify/database';
import { defineProjection, EntityManager, Projection, ProjectedEventOf } from '@notify/projection-runtime';
import { recipientColumns } from '../recipient-columns';
import { nextOf, ScheduleRow, scheduleZone, timingOf } from './schedule-row';

const EVENTS = [
  ScheduleCreated,
  ScheduleUpdated,
  ScheduleDeleted,
  OccurrenceFired,
  UserIdentified,
  UserDeleted,
  ObjectSet,
  ObjectDeleted,
] as const;
type Handled = ProjectedEventOf<(typeof EVENTS)[number]>;

const TIMING_COLUMNS = 'environment, id, repeats, scheduled_at, ending_at, inserted_at, count_from, last_occurrence, time_zone';
type TimingRow = Pick<
  ScheduleRow,
  'environment' | 'id' | 'repeats' | 'scheduled_at' | 'ending_at' | 'inserted_at' | 'count_from' | 'last_occurrence' | 'time_zone'
>;

/** Writes a row's next occurrence (the timer the firer claims) from its timing and zone. */
async function retime(tx: EntityManager, rows: TimingRow[], zone?: string): Promise<void> {
  for (const row of rows) {
    const z = zone ?? row.time_zone;
    const next = nextOf(timingOf(row), z);
    await tx.query(
      'UPDATE rm_schedules SET time_zone = $3, next_occurrence = $4, next_occurrence_at = $5 WHERE environment = $1 AND id = $2',
      [row.environment, row.id, z, next?.local ?? null, next?.at ?? null],
    );
  }
}

/** A recipient's time zone changed (or was removed): its schedules' next occurrences move. */
async function rezone(tx: EntityManager, environment: string, ref: RecipientRefT, timeZone: unknown, defaultZone: string): Promise<void> {
  const columns = recipientColumns(ref);
  if (typeof timeZone === 'string') {
    await tx.query(
      `INSERT INTO rm_schedule_zones (environment, recipient_type, recipient_collection, recipient_id, time_zone) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (environment, recipient_type, recipient_collection, recipient_id) DO UPDATE SET time_zone = EXCLUDED.time_zone`,
      [environment, ...columns, timeZone],
    );
  } else {
    await tx.query(
      'DELETE FROM rm_schedule_zones WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4',
      [environment, ...columns],
    );
  }
  const rows = await tx.query<TimingRow[]>(
    `SELECT ${TIMING_COLUMNS} FROM rm_schedules WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4`,
    [environment, ...columns],
  );
  await retime(tx, rows, scheduleZone(timeZone, defaultZone).zone);
}

/**
 * Locks, in key order, every existing row the batch will write: the schedules it names, and those
 * of the recipients whose time zone it changes. The firer locks the rows it moves in the same
 * order (ScheduleTimers), so the two never wait for each other in a cycle; without this the batch
 * took its rows in event order and could deadlock with a firer (ADR 0134). Rows the batch
 * creates are not visible to anyone else until it commits.
 */
async function lockInKeyOrder(events: readonly Handled[], tx: EntityManager): Promise<void> {
  const ids: [string[], string[]] = [[], []];
  const recipients: [string[], string[], string[], string[]] = [[], [], [], []];
  const byRecipient = (environment: string, ref: RecipientRefT) => {
    const [type, collection, id] = recipientColumns(ref);
    recipients[0].push(environment);
    recipients[1].push(type);
    recipients[2].push(collection);
    recipients[3].push(id);
  };
  for (const event of events) {
    switch (event.type) {
      case 'ScheduleUpdated':
      case 'ScheduleDeleted':
      case 'OccurrenceFired':
        ids[0].push(event.environment);
        ids[1].push(event.data.schedule_id);
        break;
      case 'UserIdentified':
        if ('timezone' in event.data.properties) byRecipient(event.environment, { type: 'user', id: event.data.user_id });
        break;
      case 'UserDeleted':
        byRecipient(event.environment, { type: 'user', id: event.data.user_id });
        break;
      case 'ObjectSet':
        if ('timezone' in event.data.properties)
          byRecipient(event.environment, { type: 'object', collection: event.data.collection, id: event.data.object_id });
        break;
      case 'ObjectDeleted':
        byRecipient(event.environment, { type: 'object', collection: event.data.collection, id: event.data.object_id });
        break;
    }
  }
  if (ids[0].length === 0 && recipients[0].length === 0) return;
  // Two index lookups (by key, by recipient), then one lock statement in key order.
  await tx.query(
    `WITH rows AS (
       SELECT k.environment, k.id FROM unnest($1::text[], $2::uuid[]) AS k(environment, id)
       UNION
       SELECT s.environment, s.id FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS r(environment, type, collection, id)
         JOIN rm_schedules s ON s.environment = r.environment AND s.recipient_type = r.type
                            AND s.recipient_collection = r.collection AND s.recipient_id = r.id)
     SELECT 1 FROM rm_schedules s JOIN rows USING (environment, id) ORDER BY s.environment, s.id FOR UPDATE OF s`,
    [...ids, ...recipients],
  );
}

/**
 * Schedules and their next occurrence (ADR 0142). The next occurrence is computed in the
 * recipient's time zone, which this projection follows from UserIdentified/ObjectSet itself.
 * Deleting a recipient does not delete rows here: the schedule-cleanup reactor records
 * ScheduleDeleted for each, and those remove them.
 */
export function schedulesProjection(defaultZone: string): Projection {
  return defineProjection({
    name: 'schedules',
    version: 1,
    tables: ['rm_schedules', 'rm_schedule_zones'],
    events: EVENTS,
    beforeBatch: lockInKeyOrder,
    on: {
      async ScheduleCreated({ environment: env, data: d, revision }, tx) {
        const columns = recipientColumns(d.recipient);
        const zones = await tx.query<{ time_zone: string }[]>(
          'SELECT time_zone FROM rm_schedule_zones WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4',
          [env, ...columns],
        );
        const zone = scheduleZone(zones[0]?.time_zone, defaultZone).zone;
        const timing = {
          repeats: d.repeats,
          scheduledAt: d.scheduled_at,
          endingAt: d.ending_at,
          createdAt: d.created_at,
          countFrom: d.created_at,
          lastOccurrence: null,
        };
        const next = nextOf(timing, zone);
        await tx.query(
          `INSERT INTO rm_schedules (environment, id, workflow, recipient_type, recipient_collection, recipient_id, actor, tenant, data, repeats, scheduled_at, ending_at,
             count_from, time_zone, next_occurrence, next_occurrence_at, revision, inserted_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $13, $13)
           ON CONFLICT (environment, id) DO NOTHING`,
          [
            env,
            d.schedule_id,
            d.workflow,
            ...columns,
            d.actor === null ? null : JSON.stringify(d.actor),
            d.tenant,
            d.data === null ? null : JSON.stringify(d.data),
            JSON.stringify(d.repeats),
            d.scheduled_at,
            d.ending_at,
            d.created_at,
            zone,
            next?.local ?? null,
            next?.at ?? null,
            revision,
          ],
        );
      },
      async ScheduleUpdated({ environment: env, data: d, revision }, tx) {
        const sets: string[] = ['updated_at = $3', 'revision = GREATEST(revision, $4)'];
        const params: unknown[] = [env, d.schedule_id, d.updated_at, revision];
        const set = (column: string, value: unknown) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        };
        if (d.actor !== undefined) set('actor', d.actor === null ? null : JSON.stringify(d.actor));
        if (d.tenant !== undefined) set('tenant', d.tenant);
        if (d.data !== undefined) set('data', d.data === null ? null : JSON.stringify(d.data));
        const retimed = d.repeats !== undefined || d.scheduled_at !== undefined || d.ending_at !== undefined;
        if (d.repeats !== undefined) set('repeats', JSON.stringify(d.repeats));
        if (d.scheduled_at !== undefined) set('scheduled_at', d.scheduled_at);
        if (d.ending_at !== undefined) set('ending_at', d.ending_at);
        if (retimed) set('count_from', d.updated_at);
        await tx.query(`UPDATE rm_schedules SET ${sets.join(', ')} WHERE environment = $1 AND id = $2`, params);
        if (retimed)
          await retime(
            tx,
            await tx.query<TimingRow[]>(`SELECT ${TIMING_COLUMNS} FROM rm_schedules WHERE environment = $1 AND id = $2`, [
              env,
              d.schedule_id,
            ]),
          );
      },
      async ScheduleDeleted({ environment, data }, tx) {
        await tx.query('DELETE FROM rm_schedules WHERE environment = $1 AND id = $2', [environment, data.schedule_id]);
      },
      async OccurrenceFired({ environment: env, data: d, revision }, tx) {
        // The firer has usually moved the row already (ADR 0142, ADR 0248): at this revision or a
        // later one, with this occurrence or a later one as its last, and its next computed as
        // below. Such a row is left alone (one statement instead of three and no recurrence to
        // compute per occurrence); any other is updated and its next occurrence computed. An older
        // occurrence changes nothing.
        const rows = returnedRows<TimingRow>(
          await tx.query(
            `UPDATE rm_schedules SET revision = GREATEST(revision, $5),
                last_occurrence = CASE WHEN last_occurrence IS NULL OR last_occurrence < $3 THEN $3 ELSE last_occurrence END,
                last_occurrence_at = CASE WHEN last_occurrence IS NULL OR last_occurrence < $3 THEN $4::timestamptz ELSE last_occurrence_at END
              WHERE environment = $1 AND id = $2 AND (revision < $5 OR last_occurrence IS NULL OR last_occurrence < $3)
              RETURNING ${TIMING_COLUMNS}`,
            [env, d.schedule_id, d.occurrence, d.due_at, revision],
          ),
        );
        await retime(
          tx,
          rows.filter((r) => r.last_occurrence === d.occurrence),
        );
      },
      async UserIdentified({ environment, data }, tx) {
        if ('timezone' in data.properties)
          await rezone(tx, environment, { type: 'user', id: data.user_id }, data.properties.timezone, defaultZone);
      },
      async ObjectSet({ environment, data }, tx) {
        if ('timezone' in data.properties)
          await rezone(
            tx,
            environment,
            { type: 'object', collection: data.collection, id: data.object_id },
            data.properties.timezone,
            defaultZone,
          );
      },
      async UserDeleted({ environment, data }, tx) {
        await rezone(tx, environment, { type: 'user', id: data.user_id }, null, defaultZone);
      },
      async ObjectDeleted({ environment, data }, tx) {
        await rezone(tx, environment, { type: 'object', collection: data.collection, id: data.object_id }, null, defaultZone);
      },
    },
  });
}
