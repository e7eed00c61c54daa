import KnockMgmt from '@knocklabs/mgmt';
import Knock from '@knocklabs/node';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createEnvironment, issueApiKey, issueServiceToken } from '@notify/application';
import { AppConfig, parseConfig } from '@notify/config';
import { EventStore } from '@notify/eventstore';
import { createLogger } from '@notify/logging';
import { DATABASE, EVENT_STORE, startHttp } from '@notify/platform';
import { Database } from '@notify/database';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { createTestDatabase, LOCAL_PEER_ADDRESSES, testEnv } from '@notify/testing';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiModule } from '../../apps/api/src/api.module';
import { WorkerModule } from '../../apps/worker/src/worker.module';

export interface TestEnvironment {
  slug: string;
  secretKey: string;
  publishableKey: string;
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestApp {
  url: string;
  /** The Postgres database the app runs on (backend postgres): start another app on it with `databaseUrl`. */
  databaseUrl?: string;
  config: AppConfig;
  app: NestFastifyApplication;
  store: EventStore;
  runtime: ProjectionRuntime;
  /** The bootstrap environment `development`. */
  env: TestEnvironment;
  serviceToken: string;
  newEnvironment(slug?: string): Promise<TestEnvironment>;
  knock(key?: string): Knock;
  /** The official management API client, authenticated with the bootstrap service token. */
  mgmt(token?: string): KnockMgmt;
  /** Reads the service's database directly (assertions on read models and the log). */
  sql<T = any>(query: string, params?: unknown[]): Promise<T[]>;
  http<T = any>(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<HttpResult<T>>;
  close(): Promise<void>;
  /** Drops the database (a kept one, once every app on it has closed); a no-op when already gone. */
  dropDatabase(): Promise<void>;
}

/** Options of startTestApp. */
export type TestAppOptions = StartTestAppOptions;

export interface StartTestAppOptions {
  backend?: 'postgres' | 'embedded';
  env?: Record<string, string>;
  dataDir?: string;
  /** Run on this existing Postgres database (a restart: pass the `databaseUrl` of an app closed before). */
  databaseUrl?: string;
  /** Leave the database in place on close, so another app can start on it (otherwise it is dropped). */
  keepDatabase?: boolean;
  /**
   * The process's clock (ADR 0274): triggers are accepted by it, the worker's timers fire by it and
   * runs are decided by it (default: the system clock). A test moves it instead of waiting.
   */
  clock?: () => Date;
}

/**
 * Starts api and worker in this process on a free port with a fresh database: a new database on
 * the configured Postgres server, or (backend 'embedded', or none configured) the embedded one.
 * With `databaseUrl` it starts on that database instead, as a restarted worker would.
 */
export async function startTestApp(options: StartTestAppOptions = {}): Promise<TestApp> {
  const backend = options.databaseUrl ? 'postgres' : (options.backend ?? (testEnv.postgresUrl ? 'postgres' : 'embedded'));
  let db: { url: string; release(): Promise<void>; drop(): Promise<void> } | undefined;
  let dataDir: string | undefined;
  if (options.databaseUrl)
    db = { url: options.databaseUrl, release: async () => undefined, drop: () => dropDatabase(options.databaseUrl!) };
  else if (backend === 'postgres') {
    const created = await createTestDatabase('postgres'); // every migration applied (cloned), so the boot finds nothing to do
    db = { url: created.url, release: () => created.database.close(), drop: () => created.close() };
  } else dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'notify-e2e-')));
  const secretKey = `sk_test_${randomBytes(16).toString('hex')}`;
  const publishableKey = `pk_test_${randomBytes(16).toString('hex')}`;
  const serviceToken = `svc_${randomBytes(20).toString('hex')}`;
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_ENABLED: 'false',
    BOOTSTRAP_SECRET_KEY: secretKey,
    BOOTSTRAP_PUBLISHABLE_KEY: publishableKey,
    BOOTSTRAP_SERVICE_TOKEN: serviceToken,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    // The tests' peers (webhook receivers, provider stand-ins, fetch targets) listen on loopback,
    // which the outbound address policy refuses unless it is allow-listed, as here.
    OUTBOUND_ALLOWED_ADDRESSES: LOCAL_PEER_ADDRESSES,
    ...(db ? { DATABASE_URL: db.url, DATABASE_POOL_SIZE: '8' } : { DATA_DIR: dataDir }),
    ...options.env,
  });
  const logger = createLogger(config.LOG_LEVEL, { role: 'test' });
  // A start that fails leaves nothing behind: startHttp closes what it opened, this drops the
  // database it made (a leftover pool or socket would keep the jest worker from exiting).
  const discard = async () => {
    if (!options.keepDatabase) await db?.drop().catch(() => undefined);
    else await db?.release().catch(() => undefined);
    if (dataDir && !options.dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  const app = await startHttp(config, logger, [ApiModule.register(), WorkerModule.register()], { clock: options.clock }).catch(
    async (error: unknown) => {
      await discard();
      throw error;
    },
  );
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const store = app.get<EventStore>(EVENT_STORE);
  const runtime = app.get(ProjectionRuntime);
  const database = app.get<Database>(DATABASE);

  const settle = async (append: { position: string; streamId: string } | undefined, type: string) => {
    if (append) await runtime.waitFor(append.position, [{ type, streamId: append.streamId }], 10_000);
  };
  // The bootstrap ran during startup; its keys are usable once the projection has them.
  const env: TestEnvironment = { slug: 'development', secretKey, publishableKey };
  await waitForKey(url, secretKey).catch(async (error: unknown) => {
    await app.close().catch(() => undefined);
    await discard();
    throw error;
  });

  const testApp: TestApp = {
    url,
    databaseUrl: db?.url,
    config,
    app,
    store,
    runtime,
    env,
    serviceToken,
    async newEnvironment(slug = `env-${randomBytes(4).toString('hex')}`) {
      const meta = { environment: slug, actor: 'test' };
      await createEnvironment(store, { slug }, meta);
      const sk = await issueApiKey(store, { environment: slug, kind: 'secret' }, meta);
      const pk = await issueApiKey(store, { environment: slug, kind: 'publishable' }, meta);
      await settle(pk.append, 'ApiKeyIssued');
      return { slug, secretKey: sk.key, publishableKey: pk.key };
    },
    sql(query, params) {
      return database.dataSource.query(query, params);
    },
    knock(key = secretKey) {
      return new Knock({ apiKey: key, baseURL: url, maxRetries: 0, timeout: 20_000 });
    },
    mgmt(token = serviceToken) {
      return new KnockMgmt({ serviceToken: token, baseURL: url, maxRetries: 0, timeout: 20_000 });
    },
    async http(method, p, opts = {}) {
      const key = opts.key === undefined ? secretKey : opts.key;
      const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...opts.headers };
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${url}${p}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, headers: res.headers, body: parsed as any };
    },
    async close() {
      await app.close();
      if (options.keepDatabase) await db?.release();
      else await db?.drop();
      if (dataDir && !options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
    async dropDatabase() {
      if (db) await dropDatabase(db.url);
    },
  };
  return testApp;
}

async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new Client({ connectionString: testEnv.postgresUrl ?? url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function waitForKey(url: string, key: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(`${url}/v1/users?page_size=1`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 401) return;
    if (Date.now() > deadline) throw new Error('bootstrap key never became usable');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Creates the service token for the management API in tests that need another one. */
export { issueServiceToken };
