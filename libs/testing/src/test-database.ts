import { Database } from '@notify/database';
import { allMigrations } from '@notify/projections';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testEnv } from './test-env';

export type BackendName = 'postgres' | 'embedded';

export interface TestDatabase {
  backend: BackendName;
  database: Database;
  url: string;
  close(): Promise<void>;
}

/** Backends to run database tests on: the embedded one always, a real server when configured. */
export function databaseBackends(): BackendName[] {
  return testEnv.postgresUrl ? ['postgres', 'embedded'] : ['embedded'];
}

/** A fresh, migrated database per test file: its own database on a real server, or an in-memory PGlite. */
export async function createTestDatabase(
  backend: BackendName = testEnv.postgresUrl ? 'postgres' : 'embedded',
  options: { migrate?: boolean; poolSize?: number } = {},
): Promise<TestDatabase> {
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (backend === 'postgres') {
    if (!testEnv.postgresUrl) throw new Error('No Postgres configured (TEST_DATABASE_URL or DATABASE_URL)');
    const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: testEnv.postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const parsed = new URL(testEnv.postgresUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    drop = async () => {
      const c = new Client({ connectionString: testEnv.postgresUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const database = await Database.open({ url, poolSize: options.poolSize ?? 5, entities: [], migrations: allMigrations });
  if (options.migrate !== false) await database.migrate();
  return {
    backend,
    database,
    url: database.url,
    async close() {
      await database.close();
      await drop?.();
    },
  };
}
