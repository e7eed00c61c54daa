import { MigrationInterface, QueryRunner } from 'typeorm';

/** Dynamic audiences (ADR 0138): their segments, and each user's membership windows. */
export class DynamicAudiencesReadModel1763712017100 implements MigrationInterface {
  name = 'DynamicAudiencesReadModel1763712017100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rm_dynamic_audiences (
        environment  text NOT NULL,
        audience_key text NOT NULL,
        segments     jsonb NOT NULL,
        PRIMARY KEY (environment, audience_key)
      )`);
    // One row per segment that can hold for the user: a member at t when member_from <= t < member_until (null: open).
    await q.query(`
      CREATE TABLE rm_dynamic_audience_members (
        environment  text NOT NULL,
        audience_key text NOT NULL,
        user_id      text NOT NULL,
        segment      integer NOT NULL,
        member_from  timestamptz,
        member_until timestamptz,
        added_at     timestamptz NOT NULL,
        PRIMARY KEY (environment, audience_key, user_id, segment)
      )`);
    await q.query('CREATE INDEX rm_dynamic_audience_members_user_idx ON rm_dynamic_audience_members (environment, user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_dynamic_audience_members');
    await q.query('DROP TABLE rm_dynamic_audiences');
  }
}
