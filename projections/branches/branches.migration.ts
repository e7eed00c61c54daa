import { MigrationInterface, QueryRunner } from 'typeorm';

export class BranchesReadModel1763712019750 implements MigrationInterface {
  name = 'BranchesReadModel1763712019750';

  async up(q: QueryRunner): Promise<void> {
    // `environment` is the branch's own configuration space (ADR 0156); a deleted branch's row goes.
    await q.query(`
      CREATE TABLE rm_branches (
        parent_environment text NOT NULL,
        slug               text NOT NULL,
        environment        text NOT NULL UNIQUE,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL,
        last_commit_at     timestamptz,
        PRIMARY KEY (parent_environment, slug)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rm_branches');
  }
}
