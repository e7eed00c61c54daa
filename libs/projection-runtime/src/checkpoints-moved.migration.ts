import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refuses a projection transaction sent as one message (BEGIN, the checkpoints' lock and move,
 * the writes, COMMIT) when the lock did not move every checkpoint of the batch (ADR 0268).
 */
export class ProjectionCheckpointsMoved1763712097000 implements MigrationInterface {
  name = 'ProjectionCheckpointsMoved1763712097000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION projection_checkpoints_all_moved(moved bigint, expected integer) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        IF moved <> expected THEN
          RAISE EXCEPTION 'projection checkpoints taken by another runner: % of % moved', moved, expected
            USING ERRCODE = 'lock_not_available';
        END IF;
      END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION projection_checkpoints_all_moved(bigint, integer)');
  }
}
