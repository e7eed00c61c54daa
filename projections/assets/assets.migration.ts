import { MigrationInterface, QueryRunner } from 'typeorm';

export class AssetsReadModel1763712019770 implements MigrationInterface {
  name = 'AssetsReadModel1763712019770';

  async up(q: QueryRunner): Promise<void> {
    // The asset store: file contents by their sha256, written before the upload's event. Not a read
    // model (the log holds no bytes), so a rebuild of `assets` leaves it alone (ADR 0159).
    await q.query(`
      CREATE TABLE asset_blobs (
        sha256     text PRIMARY KEY,
        content    bytea NOT NULL,
        size       integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE rm_assets (
        id         uuid PRIMARY KEY,
        filename   text NOT NULL,
        mime_type  text NOT NULL,
        sha256     text NOT NULL,
        size       integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_assets');
    await q.query('DROP TABLE asset_blobs');
  }
}
