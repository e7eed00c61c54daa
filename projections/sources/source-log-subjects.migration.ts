import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The user a source log's personal data belongs to (its event's erasure subject), so that erasing
 * the user drops their logs from the read model at once (ADR 0194).
 */
export class SourceLogSubjects1763712095000 implements MigrationInterface {
  name = 'SourceLogSubjects1763712095000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rm_source_logs ADD COLUMN subject text');
    await q.query('CREATE INDEX rm_source_logs_subject_idx ON rm_source_logs (environment, subject) WHERE subject IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX rm_source_logs_subject_idx');
    await q.query('ALTER TABLE rm_source_logs DROP COLUMN subject');
  }
}
