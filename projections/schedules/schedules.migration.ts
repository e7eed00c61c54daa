import { MigrationInterface, QueryRunner } from 'typeorm';

export class SchedulesReadModel1763712016140 implements MigrationInterface {
  name = 'SchedulesReadModel1763712016140';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_schedules (
        environment          text NOT NULL,
        id                   uuid NOT NULL,
        workflow             text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_collection text NOT NULL,
        recipient_id         text NOT NULL,
        actor                jsonb,
        tenant               text,
        data                 jsonb,
        repeats              jsonb NOT NULL,
        scheduled_at         timestamptz,
        ending_at            timestamptz,
        count_from           timestamptz NOT NULL,
        last_occurrence      text,
        last_occurrence_at   timestamptz,
        time_zone            text NOT NULL,
        next_occurrence      text,
        next_occurrence_at   timestamptz,
        -- A firer's lease on the row (ADR 0142): others skip it until then.
        claimed_until        timestamptz,
        -- The schedule stream's revision the row reflects: a firer never overwrites a newer one.
        revision             integer NOT NULL,
        inserted_at          timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        PRIMARY KEY (environment, id)
      )`);
    // The timer: what the firer claims (ADR 0142).
    await q.query('CREATE INDEX rm_schedules_due_idx ON rm_schedules (next_occurrence_at) WHERE next_occurrence_at IS NOT NULL');
    await q.query('CREATE INDEX rm_schedules_workflow_idx ON rm_schedules (environment, workflow, inserted_at, id)');
    await q.query(
      'CREATE INDEX rm_schedules_recipient_idx ON rm_schedules (environment, recipient_type, recipient_collection, recipient_id, inserted_at, id)',
    );
    // Recipients' time zones as the log says them, so the schedule read model never reads another's tables.
    await q.query(`
      CREATE TABLE rm_schedule_zones (
        environment          text NOT NULL,
        recipient_type       text NOT NULL,
        recipient_collection text NOT NULL,
        recipient_id         text NOT NULL,
        time_zone            text NOT NULL,
        PRIMARY KEY (environment, recipient_type, recipient_collection, recipient_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_schedule_zones');
    await q.query('DROP TABLE rm_schedules');
  }
}
