import { Database } from '@notify/database';
import { allMigrations } from '@notify/projections';
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, DatabaseError } from 'pg';
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
    try {
      if (options.migrate === false) await admin.query(`CREATE DATABASE ${name}`);
      else await cloneMigrated(admin, name);
    } finally {
      await admin.end();
    }
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
  const migrate = options.migrate !== false;
  const database = url
    ? await Database.open({ url, poolSize: options.poolSize ?? 5, entities: [], migrations: allMigrations })
    : await openEmbedded(migrate);
  if (migrate) await database.migrate();
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

/**
 * Every migration applied, once per set of migrations: test files clone it (CREATE DATABASE ...
 * TEMPLATE copies the files) instead of each running a hundred migrations, which was a share of
 * the server's CPU in CI. The name carries a hash of the migrations' code, so a changed or added
 * migration gets a template of its own. Nobody may connect to it (a connection would make cloning
 * fail); the migrate() that follows the clone finds every migration applied.
 */
async function cloneMigrated(admin: Client, name: string): Promise<void> {
  const template = `notify_template_${migrationsDigest()}`;
  for (let attempt = 1; ; attempt++) {
    await ensureTemplate(admin, template);
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      return;
    } catch (error) {
      // Dropped as stale by a run of other migrations (another checkout on this server): build it again.
      if (attempt === 1 && error instanceof DatabaseError && error.code === '3D000') continue;
      throw error;
    }
  }
}

async function ensureTemplate(admin: Client, template: string): Promise<void> {
  const exists = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount === 1;
  if (await exists()) return;
  // One builder at a time across jest workers and concurrent runs; the others then find it.
  await admin.query('SELECT pg_advisory_lock(727274090)');
  try {
    if (await exists()) return;
    const building = `${template}_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(testEnv.postgresUrl!);
    url.pathname = `/${building}`;
    try {
      const database = await Database.open({ url: url.toString(), poolSize: 2, entities: [], migrations: allMigrations });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`).catch(() => undefined);
      throw error;
    }
    await admin.query(`ALTER DATABASE ${building} WITH ALLOW_CONNECTIONS false`);
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    // Templates of other migrations are stale (a run of another checkout rebuilds its own if it finds it gone).
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname ~ '^notify_template_[0-9a-f]{16}$' AND datname <> $1",
      [template],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
  } finally {
    await admin.query('SELECT pg_advisory_unlock(727274090)');
  }
}

let digest: string | undefined;
/** Names the set of migrations by their code: a changed or added migration changes it. Once per process. */
function migrationsDigest(): string {
  if (digest) return digest;
  const hash = createHash('sha256');
  for (const migration of allMigrations) hash.update(`${migration.name}\n${migration.toString()}\n`);
  return (digest = hash.digest('hex').slice(0, 16));
}

let pgliteVersion: Promise<string> | undefined;
/** The installed PGlite's version (snapshots are of its files), read once per process. */
function pglite(): Promise<string> {
  pgliteVersion ??= readFile(path.join(path.dirname(require.resolve('@electric-sql/pglite')), '../package.json'), 'utf8').then(
    (text) => (JSON.parse(text) as { version: string }).version,
  );
  return pgliteVersion;
}

/**
 * An in-memory embedded database started from a snapshot, bare (just initdb) or with every
 * migration applied: starting PGlite from its files takes about a second of CPU, a fresh one runs
 * initdb first, two more. The first file of a run to need one takes it and leaves it in the temp
 * directory (written aside, then renamed); a snapshot that does not load is taken again.
 */
async function openEmbedded(migrated: boolean): Promise<Database> {
  const version = await pglite();
  const prefix = 'notify-test-pglite-';
  const names = { bare: `${prefix}${version}-bare.tar`, migrated: `${prefix}${version}-migrated-${migrationsDigest()}.tar` };
  const file = path.join(tmpdir(), migrated ? names.migrated : names.bare);
  const open = (embeddedSnapshot?: Uint8Array) => Database.open({ poolSize: 1, entities: [], migrations: allMigrations, embeddedSnapshot });
  const snapshot = await readFile(file).catch(() => undefined);
  if (snapshot) {
    try {
      return await open(snapshot);
    } catch {
      await rm(file, { force: true });
    }
  }
  const database = await open();
  try {
    if (migrated) await database.migrate();
    const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(aside, await database.embedded!.snapshot());
    await rename(aside, file);
    // Snapshots of other migrations or PGlite versions are stale (the current pair is kept whichever was taken).
    const current: string[] = [names.bare, names.migrated];
    for (const name of await readdir(tmpdir()))
      if (name.startsWith(prefix) && name.endsWith('.tar') && !current.includes(name)) await rm(path.join(tmpdir(), name), { force: true });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
