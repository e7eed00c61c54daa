import { createHash } from 'node:crypto';
import { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, EntitySchema, MixedList } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { EmbeddedPostgres } from './embedded-postgres';

/**
 * Every pool connection keeps an 'error' listener for its whole life. pg-pool listens only while
 * a connection is idle and TypeORM only once its query runner holds it, a microtask after
 * pg-pool handed it over; a connection terminated in between (pg_terminate_backend, a
 * restarting server: its FATAL message can arrive in the same read as the answer that freed the
 * connection) emitted 'error' to nobody, which crashes a Node process. The error is not lost: the
 * connection is no longer queryable, so its next query fails (503, ADR 0135) and the pool drops it.
 */
function keepErrorsHandled(client: PoolClient): void {
  client.on('error', () => undefined);
}

export interface DatabaseOptions {
  /** A real server; when absent an embedded PGlite is started. */
  url?: string;
  /** Where the embedded database keeps its files; undefined keeps it in memory. */
  dataDir?: string;
  /** An in-memory embedded database starts from this snapshot (EmbeddedPostgres.snapshot()). */
  embeddedSnapshot?: Uint8Array;
  poolSize: number;
  /** Connections kept open however long they are idle; default poolSize (a fixed-size pool once warm). */
  minIdle?: number;
  /** Longest a query waits for a pool connection (and a new connection may take to open); server only. */
  connectionTimeoutMs?: number;
  /** How long a connection above minIdle may sit idle before it is closed (pg-pool's 10 s by default). */
  idleTimeoutMs?: number;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
}

/** The node-postgres pool behind a TypeORM data source (shared with the raw-SQL users). */
export function poolOf(dataSource: DataSource): Pool | undefined {
  return (dataSource.driver as PostgresDriver | undefined)?.master as Pool | undefined;
}

/** Names of the prepared statements, by text (the same on every connection of the process). */
const statementNames = new Map<string, string>();

/**
 * A statement run often with the same text, as a named prepared statement: each connection plans
 * it once instead of at every call (for a short read its planning costs more than its execution).
 * Over a data source without a pg pool it is an ordinary query.
 */
export async function preparedQuery<Row>(dataSource: DataSource, text: string, values: unknown[]): Promise<Row[]> {
  const pool = poolOf(dataSource);
  if (!pool) return dataSource.query<Row[]>(text, values);
  let name = statementNames.get(text);
  if (!name) {
    name = `notify_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return (await pool.query<Row & QueryResultRow>({ name, text, values })).rows;
}

/**
 * One database for the read models (and the event log in the default Postgres mode): a TypeORM
 * DataSource whose pg pool is shared with the raw-SQL users (event store, projection runtime).
 */
export class Database {
  private constructor(
    readonly dataSource: DataSource,
    readonly url: string,
    readonly embedded: EmbeddedPostgres | undefined,
  ) {}

  get pool(): Pool {
    return poolOf(this.dataSource)!;
  }

  /** LISTEN/NOTIFY needs a server of its own connections; the embedded one wakes in-process. */
  get supportsNotify(): boolean {
    return this.embedded === undefined;
  }

  static async open(options: DatabaseOptions): Promise<Database> {
    // PGlite executes one statement at a time and its socket server does not keep concurrent
    // extended-protocol exchanges apart reliably, so the embedded mode gets exactly one
    // connection. Waiting for a second connection while holding the first would hang: the
    // acquire timeout turns such a mistake into an error.
    const embedded = options.url
      ? undefined
      : await EmbeddedPostgres.start({ dataDir: options.dataDir, maxConnections: 1, snapshot: options.embeddedSnapshot });
    const url = options.url ?? embedded!.url;
    const poolSize = embedded ? 1 : options.poolSize;
    // pg-pool closes a connection idle for 10 s unless `min` are open; opening one again costs a
    // TCP handshake, authentication and a server backend, which lands on the request that waits.
    const min = embedded ? 1 : Math.min(options.minIdle ?? poolSize, poolSize);
    const dataSource = new DataSource({
      type: 'postgres',
      url,
      entities: options.entities,
      migrations: options.migrations,
      migrationsTableName: 'typeorm_migrations',
      migrationsTransactionMode: 'each',
      extra: {
        max: poolSize,
        min,
        idleTimeoutMillis: options.idleTimeoutMs ?? 10_000,
        connectionTimeoutMillis: embedded ? 30_000 : (options.connectionTimeoutMs ?? 10_000),
        onConnect: keepErrorsHandled,
      },
      logging: false,
    });
    try {
      await dataSource.initialize();
    } catch (error) {
      await embedded?.stop();
      throw error;
    }
    return new Database(dataSource, url, embedded);
  }

  async migrate(): Promise<void> {
    // The embedded database belongs to one process (DATA_DIR is locked) and has one connection.
    if (this.embedded) {
      await this.dataSource.runMigrations({ transaction: 'each' });
      return;
    }
    // Concurrent boots (api and worker) must not run the same migration twice.
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(727274002)');
      try {
        await this.dataSource.runMigrations({ transaction: 'each' });
      } finally {
        await runner.query('SELECT pg_advisory_unlock(727274002)');
      }
    } finally {
      await runner.release();
    }
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}
