import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { EMBEDDED_POSTGRES_THREAD, embeddedStartParams, embeddedV8Flags } from './embedded-postgres.settings';

/**
 * Postgres compiled to WebAssembly (PGlite), run inside this process on a worker thread and
 * served over the Postgres wire protocol on a loopback port. Everything else talks to it through the same `pg`
 * driver as to a real server, so there is one code path for SQL.
 *
 * PGlite runs one statement at a time; the socket server queues connections and keeps a
 * transaction's statements together. Code must therefore never wait, inside a transaction, on
 * another connection.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly worker: Worker,
    private readonly lockFile: string | undefined,
    readonly url: string,
  ) {}

  /**
   * dataDir undefined means in-memory (tests); an in-memory database may start from `snapshot`, the
   * bytes `snapshot()` answered for another one (skipping initdb and whatever had been applied).
   */
  static async start(options: { dataDir?: string; maxConnections: number; snapshot?: Uint8Array }): Promise<EmbeddedPostgres> {
    if (options.snapshot && options.dataDir) throw new Error('A snapshot starts an in-memory embedded database only');
    let lockFile: string | undefined;
    let dbPath: string | undefined;
    if (options.dataDir) {
      const dir = path.resolve(options.dataDir);
      await mkdir(dir, { recursive: true });
      lockFile = path.join(dir, 'pglite.lock');
      await acquireLock(lockFile);
      dbPath = path.join(dir, 'pglite');
    }
    const startParams = embeddedStartParams();
    try {
      // A new directory is created by a process of its own (see embedded-postgres.initdb.js).
      if (dbPath && !existsSync(path.join(dbPath, 'PG_VERSION'))) await initdb(dbPath, startParams);
    } catch (error) {
      if (lockFile) await rm(lockFile, { force: true });
      throw error;
    }
    // Process-wide, before PGlite's WebAssembly is compiled (see EMBEDDED_POSTGRES_THREAD).
    for (const flag of embeddedV8Flags()) setFlagsFromString(flag);
    const worker = new Worker(path.join(__dirname, 'embedded-postgres.worker.js'), {
      workerData: { dbPath, startParams, maxConnections: options.maxConnections, snapshot: options.snapshot },
      resourceLimits: { maxYoungGenerationSizeMb: EMBEDDED_POSTGRES_THREAD.maxYoungGenerationSizeMb },
    });
    try {
      const address = await started(worker);
      return new EmbeddedPostgres(worker, lockFile, `postgres://postgres@${address}/postgres`);
    } catch (error) {
      await worker.terminate();
      if (lockFile) await rm(lockFile, { force: true });
      throw error;
    }
  }

  /**
   * The whole database directory as an uncompressed tar, for `start({ snapshot })`. Taken between
   * statements: nothing may be running on the database meanwhile.
   */
  snapshot(): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { snapshot?: ArrayBuffer; snapshotError?: string }) => {
        if (!message.snapshot && !message.snapshotError) return;
        this.worker.off('message', onMessage);
        if (message.snapshot) resolve(new Uint8Array(message.snapshot));
        else reject(new Error(`the embedded database could not be snapshotted: ${message.snapshotError}`));
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage('snapshot');
    });
  }

  /**
   * Closes PGlite cleanly so everything it holds is flushed to DATA_DIR. Answers 'closed' when the
   * thread said so, 'timed out' when it did not within the timeout (the thread is ended anyway).
   */
  async stop(timeoutMs = 10_000): Promise<'closed' | 'timed out'> {
    const outcome = await new Promise<'closed' | 'timed out'>((resolve) => {
      const timer = setTimeout(() => resolve('timed out'), timeoutMs);
      this.worker.once('message', () => {
        clearTimeout(timer);
        resolve('closed');
      });
      this.worker.postMessage('stop');
    });
    await this.worker.terminate();
    if (this.lockFile) await rm(this.lockFile, { force: true });
    return outcome;
  }
}

/**
 * The thread's first message: its address, or why PGlite did not start. Removes only its own
 * listeners: worker.removeAllListeners() would also remove Node's hook that starts the thread's
 * message port for the next 'message' listener, and stop() would then never hear that PGlite has
 * closed (it waited for its whole timeout).
 */
function started(worker: Worker): Promise<string> {
  return new Promise((resolve, reject) => {
    const settle = (error: Error | undefined, address?: string) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (error) reject(error);
      else resolve(address!);
    };
    const onMessage = (m: { address?: string; error?: string }) =>
      settle(m.address ? undefined : new Error(`Embedded Postgres failed to start: ${m.error}`), m.address);
    const onError = (error: Error) => settle(error);
    const onExit = (code: number) => settle(new Error(`Embedded Postgres thread exited with code ${code}`));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** Runs initdb into dbPath in a child process; its error output becomes the error's message. */
async function initdb(dbPath: string, startParams: string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    [...embeddedV8Flags(), path.join(__dirname, 'embedded-postgres.initdb.js'), dbPath, JSON.stringify(startParams)],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`Embedded Postgres failed to create ${dbPath} (${signal ?? `exit code ${code}`}): ${stderr.trim()}`);
}

/** Two processes on one PGlite directory would corrupt it; refuse the second one clearly. */
async function acquireLock(file: string): Promise<void> {
  const existing = await readFile(file, 'utf8').catch(() => undefined);
  const pid = existing ? Number(existing.trim()) : NaN;
  if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
    throw new Error(
      `The embedded database in ${path.dirname(file)} is in use by process ${pid}. ` +
        'Embedded mode runs in one process: stop that process first (a CLI command needs the database to itself), ' +
        'or set DATABASE_URL to run the api, the worker and the CLI beside each other.',
    );
  }
  await writeFile(file, String(process.pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
