import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { Client, Pool } from 'pg';
import { keyFromSetting } from '@notify/platform';

const root = path.resolve(__dirname, '../../..');

export interface BenchService {
  url: string;
  secretKey: string;
  serviceToken: string;
  databaseUrl: string;
  /** The service's process id (its memory is read from /proc). */
  pid: number;
  /** A pool on the service's database, for measurements. */
  sql: Pool;
  /** The service's ERASURE_MASTER_KEY: the seeder seals personal fields and stores users' keys as the service does. */
  erasureMasterKey: Buffer;
  call<T = any>(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: T }>;
  /** Split services only: stops the worker process, leaving the api alone (nothing projects or runs after). */
  stopWorker(): Promise<void>;
  stop(): Promise<void>;
}

export function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('npm run bench needs DATABASE_URL: a PostgreSQL server where it may create and drop databases');
  return url;
}

export async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: serverUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * An npm start script's command line, from package.json: its node options and entry point, so
 * the bench runs the service exactly as `npm start` (or `start:api`, `start:worker`) does.
 */
export function startCommand(script: 'start' | 'start:api' | 'start:worker'): { nodeArgs: string[]; entry: string; text: string } {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const text = pkg.scripts[script];
  const words = (text ?? '').split(/\s+/).filter(Boolean);
  if (words[0] !== 'node' || !words.at(-1)!.endsWith('.js'))
    throw new Error(`npm run ${script} is not "node [options] <file>.js": ${text}`);
  return { nodeArgs: words.slice(1, -1), entry: words.at(-1)!, text };
}

/** Starts a built entry point (after `nodeArgs`) as a child process and resolves with the URL it listens on. */
export function spawnListening(
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, entry)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start; stderr: ${stderr}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}; stderr: ${stderr}`)));
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string; level?: number };
          if (entry.msg === 'listening' && entry.url) {
            clearTimeout(timer);
            resolve({ child, url: entry.url.replace('[::1]', '127.0.0.1') });
          } else if ((entry.level ?? 0) >= 50) process.stderr.write(`[service] ${line}\n`);
        } catch {
          // not a log line
        }
      }
    });
  });
}

/** Starts a built entry point (after `nodeArgs`) with the bench's profiling and node options; `stderr` reads what it wrote there so far. */
function spawnService(entry: string, env: Record<string, string>, nodeArgs: string[] = []): { child: ChildProcess; stderr: () => string } {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the service (open it in Chrome DevTools).
  // BENCH_NODE_ARGS adds node options to the service's command line (e.g. --trace-gc).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...profile, ...extra, path.join(root, entry)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', process.env.BENCH_SERVICE_STDOUT ? 'inherit' : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return { child, stderr: () => stderr };
}

/** Starts a built entry point (after `nodeArgs`) and resolves once it answers /healthz on the given port. */
export async function spawnReady(
  entry: string,
  port: number,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const { child, stderr } = spawnService(entry, env, nodeArgs);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}; stderr: ${stderr()}`);
    const ok = await fetch(`${url}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { child, url };
    if (Date.now() > deadline) throw new Error(`${entry} did not answer on ${url}; stderr: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** BENCH_SERVICE_ENV="NAME=value NAME2=value2" adds settings to the service's environment (A/B runs of one setting). */
export function extraServiceEnv(): Record<string, string> {
  const pairs = (process.env.BENCH_SERVICE_ENV ?? '').split(/\s+/).filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`BENCH_SERVICE_ENV: expected NAME=value, got ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The whole service (api and worker in one process, as `npm start`) on a fresh database. It logs
 * at warn level (request logs at info would be part of what is measured), so readiness is polled.
 * `split` starts the api and the worker as two processes instead (the api's own cost, measured
 * once the worker is stopped).
 */
export async function startService(
  name: string,
  env: Record<string, string> = {},
  options: { split?: boolean } = {},
): Promise<BenchService> {
  const db = await freshDatabase(`bench_${name}`);
  const secretKey = `sk_bench_${randomBytes(16).toString('hex')}`;
  const serviceToken = `svc_bench_${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  const serviceEnv = {
    DATABASE_URL: db.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    DATABASE_POOL_SIZE: '20',
    BOOTSTRAP_SECRET_KEY: secretKey,
    BOOTSTRAP_SERVICE_TOKEN: serviceToken,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    ERASURE_MASTER_KEY: randomBytes(32).toString('hex'),
    ...env,
    ...extraServiceEnv(),
  };
  // BENCH_SPLIT=1: every scenario's service as two processes (the README's start:api and start:worker).
  const split = options.split ?? process.env.BENCH_SPLIT === '1';
  // With the start scripts' node options, as the README runs them.
  const workerCommand = split ? startCommand('start:worker') : undefined;
  const worker = workerCommand ? spawnService(workerCommand.entry, serviceEnv, workerCommand.nodeArgs).child : undefined;
  const command = startCommand(split ? 'start:api' : 'start');
  const { child, url } = await spawnReady(command.entry, port, serviceEnv, command.nodeArgs);
  const sql = new Pool({ connectionString: db.url, max: 4 });
  const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  // The bootstrap key becomes usable once the environments projection has it.
  for (let i = 0; i < 400 && (await call('GET', '/v1/users/nobody')).status === 401; i++) await new Promise((r) => setTimeout(r, 50));
  return {
    url,
    secretKey,
    serviceToken,
    databaseUrl: db.url,
    pid: child.pid!,
    sql,
    erasureMasterKey: keyFromSetting(serviceEnv.ERASURE_MASTER_KEY),
    call,
    async stopWorker() {
      if (!worker) throw new Error('stopWorker: the service was not started split');
      await stopChild(worker);
    },
    async stop() {
      await stopChild(child);
      if (worker) await stopChild(worker);
      await sql.end();
      await db.drop();
    },
  };
}

/** Management API call with the service token. */
export async function mgmt(service: BenchService, method: string, p: string, body?: unknown) {
  const res = await fetch(`${service.url}${p}${p.includes('?') ? '&' : '?'}environment=development`, {
    method,
    headers: { authorization: `Bearer ${service.serviceToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Upserts and activates a workflow through the management API. */
export async function defineWorkflow(service: BenchService, key: string, steps: unknown[]): Promise<void> {
  await mgmt(service, 'PUT', `/v1/workflows/${key}`, { workflow: { name: key, steps } });
  await mgmt(service, 'PUT', `/v1/workflows/${key}/activate`, { status: true });
}

export const inAppStep = (ref = 'in_app_1') => ({
  type: 'channel',
  ref,
  channel_key: 'in-app',
  channel_type: 'in_app_feed',
  template: { markdown_body: 'Hello {{ recipient.id }}: {{ data.n }} ({{ total_activities }})' },
});
