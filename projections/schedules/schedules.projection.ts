import {
  EventOf,
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
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';
import { recipientColumns } from '../recipient-columns';
import { nextOf, ScheduleRow, scheduleZone, timingOf } from './schedule-row';

type Handled =
  | EventOf<typeof ScheduleCreated>
  | EventOf<typeof ScheduleUpdated>
  | EventOf<typeof ScheduleDeleted>
  | EventOf<typeof OccurrenceFired>
  | EventOf<typeof UserIdentified>
  | EventOf<typeof UserDeleted>
  | EventOf<typeof ObjectSet>
  | EventOf<typeof ObjectDeleted>;

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
 * Schedules and their next occurrence (ADR 0142). The next occurrence is computed in the
 * recipient's time zone, which this projection follows from UserIdentified/ObjectSet itself.
 * Deleting a recipient does not delete rows here: the schedule-cleanup reactor records
 * ScheduleDeleted for each, and those remove them.
 */
export function schedulesProjection(defaultZone: string): Projection {
  return {
    name: 'schedules',
    version: 1,
    filter: {
      eventTypes: [
        'ScheduleCreated',
        'ScheduleUpdated',
        'ScheduleDeleted',
        'OccurrenceFired',
        'UserIdentified',
        'UserDeleted',
        'ObjectSet',
        'ObjectDeleted',
      ],
    },
    tables: ['rm_schedules', 'rm_schedule_zones'],

    async apply(events: readonly RecordedEvent[], tx: EntityManager) {
      for (const recorded of events) {
        const event = recorded as unknown as Handled;
        const env = recorded.metadata.environment!;
        switch (event.type) {
          case 'ScheduleCreated': {
            const d = event.data;
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
                recorded.revision,
              ],
            );
            break;
          }
          case 'ScheduleUpdated': {
            const d = event.data;
            const sets: string[] = ['updated_at = $3', 'revision = GREATEST(revision, $4)'];
            const params: unknown[] = [env, d.schedule_id, d.updated_at, recorded.revision];
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
            break;
          }
          case 'ScheduleDeleted':
            await tx.query('DELETE FROM rm_schedules WHERE environment = $1 AND id = $2', [env, event.data.schedule_id]);
            break;
          case 'OccurrenceFired': {
            const d = event.data;
            // The firer may have advanced the row already (ADR 0142); an older occurrence changes nothing.
            await tx.query(
              `UPDATE rm_schedules SET revision = GREATEST(revision, $5),
                  last_occurrence = CASE WHEN last_occurrence IS NULL OR last_occurrence < $3 THEN $3 ELSE last_occurrence END,
                  last_occurrence_at = CASE WHEN last_occurrence IS NULL OR last_occurrence < $3 THEN $4::timestamptz ELSE last_occurrence_at END
                WHERE environment = $1 AND id = $2`,
              [env, d.schedule_id, d.occurrence, d.due_at, recorded.revision],
            );
            const rows = await tx.query<TimingRow[]>(
              `SELECT ${TIMING_COLUMNS} FROM rm_schedules WHERE environment = $1 AND id = $2 AND last_occurrence = $3`,
              [env, d.schedule_id, d.occurrence],
            );
            await retime(tx, rows);
            break;
          }
          case 'UserIdentified':
            if ('timezone' in event.data.properties)
              await rezone(tx, env, { type: 'user', id: event.data.user_id }, event.data.properties.timezone, defaultZone);
            break;
          case 'ObjectSet':
            if ('timezone' in event.data.properties)
              await rezone(
                tx,
                env,
                { type: 'object', collection: event.data.collection, id: event.data.object_id },
                event.data.properties.timezone,
                defaultZone,
              );
            break;
          case 'UserDeleted':
            await rezone(tx, env, { type: 'user', id: event.data.user_id }, null, defaultZone);
            break;
          case 'ObjectDeleted':
            await rezone(tx, env, { type: 'object', collection: event.data.collection, id: event.data.object_id }, null, defaultZone);
            break;
        }
      }
    },
  };
}
