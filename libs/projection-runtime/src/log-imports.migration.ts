import { MigrationInterface, QueryRunner } from 'typeorm';
import { DataSource } from 'typeorm';

/**
 * Imports of a log from an export (ADR 0153). Reactors (the engine, delivery, the Kafka relay...)
 * must not act again on history another installation already acted on: a reactor that has no
 * checkpoint yet starts after the last import, and the import moves existing checkpoints past it.
 */
export class LogImports1763712019753 implements MigrationInterface {
  name = 'LogImports1763712019753';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE log_imports (
        id          serial PRIMARY KEY,
        position    text NOT NULL,
        events      bigint NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE log_imports');
  }
}

/** Records an import up to `position` and moves every reactor checkpoint behind it there. */
export async function recordLogImport(db: DataSource, position: string, events: number): Promise<void> {
  await db.transaction((tx) => recordLogImportIn((sql, params) => tx.query(sql, params), position, events));
}

/** The same, inside a transaction the caller holds (the HTTP import commits it with the events, ADR 0197). */
export async function recordLogImportIn(
  query: (sql: string, params?: unknown[]) => Promise<unknown>,
  position: string,
  events: number,
): Promise<void> {
  await query('INSERT INTO log_imports (position, events) VALUES ($1, $2)', [position, events]);
  await query('UPDATE reactor_checkpoints SET position = $1, updated_at = now() WHERE position < $1', [position]);
}

/** Where the last import ended, or undefined when the log was never imported into. */
export async function lastImportPosition(db: DataSource): Promise<string | undefined> {
  const rows = await db.query<{ position: string }[]>('SELECT position FROM log_imports ORDER BY id DESC LIMIT 1');
  return rows[0]?.position;
}
