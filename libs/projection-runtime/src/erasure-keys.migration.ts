import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-subject keys for personal fields in events (ADR 0180), each wrapped with the master key.
 * Erasure deletes the key row (the key is gone for good) and bumps the epoch, which every
 * process's key cache checks before it trusts what it holds.
 */
export class ErasureKeys1763712018000 implements MigrationInterface {
  name = 'ErasureKeys1763712018000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE erasure_keys (
        subject     text PRIMARY KEY,
        wrapped_key text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE erasure_epoch (
        id    boolean PRIMARY KEY DEFAULT true CHECK (id),
        epoch bigint NOT NULL
      )`);
    await q.query('INSERT INTO erasure_epoch (id, epoch) VALUES (true, 0)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE erasure_epoch');
    await q.query('DROP TABLE erasure_keys');
  }
}
