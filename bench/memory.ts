/**
 * Resident memory of the service as `npm start` runs it (the command line is read from
 * package.json), summed over its process and every process it started: idle after start, the
 * peak during a light load (1,000 triggers of a one-step in-app workflow to 10 users, until every
 * message is in its feed), and idle again after it. Three runs:
 * - embedded default (PGlite), first start on an empty DATA_DIR;
 * - embedded default, restarted on that DATA_DIR (idle only);
 * - external PostgreSQL on a fresh database (DATABASE_URL), the baseline; not run without it.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:memory
 *
 * Settings (environment): BENCH_MEMORY_TRIGGERS (1000), BENCH_MEMORY_SETTLE_S (20: how long the
 * service is left alone before idle samples), BENCH_MEMORY_SAMPLE_S (10: one sample a second).
 * BENCH_SERVICE_ENV="NAME=value ..." adds settings to the service (A/B runs).
 * Writes bench/results/memory.json and the part of BENCHMARKS.md between its markers.
 */
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { closedLoop, percentile, round, until } from './support/load';
import { processTreeMemory, ProcessMemory, sampleTreeMemory } from './support/rss';
import { extraServiceEnv, freePort, freshDatabase, inAppStep, spawnReady, startCommand } from './support/service';

const root = path.resolve(__dirname, '../..');
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const setup = {
  triggers: num('BENCH_MEMORY_TRIGGERS', 1000),
  users: 10,
  concurrency: 8,
  settleSeconds: num('BENCH_MEMORY_SETTLE_S', 20),
  sampleSeconds: num('BENCH_MEMORY_SAMPLE_S', 10),
};
const BEGIN = '<!-- npm run bench:memory: begin -->';
const END = '<!-- npm run bench:memory: end -->';

interface Idle {
  medianMb: number;
  maxMb: number;
  samples: number;
}

interface Run {
  mode: string;
  idle: Idle;
  /** The processes at the last idle sample after start. */
  processes: ProcessMemory[];
  load?: { seconds: number; failed: number; peakMb: number; afterLoad: Idle };
  /** The main process's highest resident set size over its life (VmHWM). */
  lifetimePeakMb: number;
  exitCode: number | null;
}

class Service {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    private readonly secretKey: string,
    private readonly serviceToken: string,
  ) {}

  static async start(env: Record<string, string>): Promise<Service> {
    const command = startCommand('start');
    const port = await freePort();
    const secretKey = `sk_bench_${randomBytes(16).toString('hex')}`;
    const serviceToken = `svc_bench_${randomBytes(16).toString('hex')}`;
    const { child, url } = await spawnReady(
      command.entry,
      port,
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // The load would meet the default rate limits; their state is a few counters.
        RATE_LIMIT_ENABLED: 'false',
        BOOTSTRAP_SECRET_KEY: secretKey,
        BOOTSTRAP_SERVICE_TOKEN: serviceToken,
        ...env,
        ...extraServiceEnv(),
      },
      command.nodeArgs,
    );
    const service = new Service(child, url, secretKey, serviceToken);
    // The bootstrap key becomes usable once the environments projection has it.
    const usable = await until(async () => (await service.call('GET', '/v1/users/nobody')).status !== 401, 30_000, 50);
    if (!usable) throw new Error('the bootstrap key was not accepted within 30 s');
    return service;
  }

  get pid(): number {
    return this.child.pid!;
  }

  async call(method: string, p: string, body?: unknown, token = this.secretKey): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async mgmt(method: string, p: string, body: unknown): Promise<void> {
    const res = await this.call(method, `${p}?environment=development`, body, this.serviceToken);
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** SIGTERM, as a user's Ctrl-C; resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    return new Promise((resolve) => {
      this.child.once('exit', (code) => resolve(code));
      this.child.kill('SIGTERM');
    });
  }
}

/** Leaves the service alone for the settle time, then samples once a second. */
async function idle(service: Service): Promise<Idle> {
  await new Promise((r) => setTimeout(r, setup.settleSeconds * 1000));
  const samples: number[] = [];
  for (let i = 0; i < setup.sampleSeconds; i++) {
    samples.push((await processTreeMemory(service.pid)).totalMb);
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { medianMb: percentile(samples, 50), maxMb: Math.max(...samples), samples: samples.length };
}

/** 1,000 triggers to 10 users from 8 clients; done when every message is counted in its user's feed. */
async function lightLoad(service: Service): Promise<{ seconds: number; failed: number; peakMb: number }> {
  const users = Array.from({ length: setup.users }, (_, i) => `mem-user-${i}`);
  await service.mgmt('PUT', '/v1/workflows/bench-memory', { workflow: { name: 'bench-memory', steps: [inAppStep()] } });
  await service.mgmt('PUT', '/v1/workflows/bench-memory/activate', { status: true });
  for (const id of users) {
    const res = await service.call('PUT', `/v1/users/${id}`, { name: id });
    if (res.status !== 200) throw new Error(`identify ${id}: ${res.status}`);
  }
  const sampler = sampleTreeMemory(service.pid, 250);
  const started = performance.now();
  const sent = await closedLoop(setup.triggers, setup.concurrency, async (i) => {
    const res = await service.call('POST', '/v1/workflows/bench-memory/trigger', { recipients: [users[i % users.length]], data: { n: i } });
    if (res.status !== 200) throw new Error(String(res.status));
  });
  const channelId = await until(
    async () =>
      (await service.call('GET', `/v1/users/${users[0]}/messages?page_size=1`)).body?.items?.[0]?.channel_id as string | undefined,
    60_000,
    100,
  );
  if (!channelId) throw new Error('no message reached the feed within 60 s');
  const visible = async () => {
    let total = 0;
    for (const id of users)
      total += (await service.call('GET', `/v1/users/${id}/feeds/${channelId}?page_size=1`)).body.meta.total_count as number;
    return total;
  };
  const done = await until(async () => (await visible()) >= sent.sent - sent.errors, 300_000, 250);
  const seconds = (performance.now() - started) / 1000;
  const samples = await sampler.stop();
  if (!done) throw new Error(`only ${await visible()} of ${sent.sent - sent.errors} messages visible after 300 s`);
  return { seconds: round(seconds, 1), failed: sent.errors, peakMb: Math.max(...samples) };
}

async function measure(mode: string, env: Record<string, string>, withLoad: boolean): Promise<Run> {
  process.stdout.write(`\n== ${mode}\n`);
  const service = await Service.start(env);
  try {
    const atIdle = await idle(service);
    const { processes } = await processTreeMemory(service.pid);
    process.stdout.write(
      `idle: median ${atIdle.medianMb} MiB, max ${atIdle.maxMb} MiB (${processes.map((p) => `${p.command.split(' ').at(-1)} ${p.rssMb}`).join(', ')})\n`,
    );
    let load: Run['load'];
    if (withLoad) {
      const l = await lightLoad(service);
      process.stdout.write(`load done in ${l.seconds} s; leaving the service alone\n`);
      const afterLoad = await idle(service);
      load = { ...l, afterLoad };
      process.stdout.write(
        `load: ${setup.triggers} triggers visible after ${l.seconds} s (${l.failed} failed), peak ${l.peakMb} MiB; idle after: median ${afterLoad.medianMb} MiB, max ${afterLoad.maxMb} MiB\n`,
      );
    }
    const lifetimePeakMb = (await processTreeMemory(service.pid)).processes[0].peakMb;
    return { mode, idle: atIdle, processes, load, lifetimePeakMb, exitCode: await service.stop() };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function machine(): Promise<Record<string, string | number>> {
  const cpus = os.cpus();
  let postgres = 'not used (DATABASE_URL unset)';
  if (process.env.DATABASE_URL) {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    postgres = (await client.query<{ version: string }>('SELECT version()')).rows[0].version.split(',')[0];
    await client.end();
  }
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    loadAverage1m: round(os.loadavg()[0], 2),
  };
}

function markdown(at: Date, command: string, m: Record<string, string | number>, runs: Run[]): string {
  const row = (r: Run) =>
    `| ${r.mode} | ${r.idle.medianMb} (max ${r.idle.maxMb}) | ${r.load ? `${r.load.peakMb}` : '-'} | ${r.load ? `${r.load.afterLoad.medianMb} (max ${r.load.afterLoad.maxMb})` : '-'} | ${r.lifetimePeakMb} | ${r.load ? `${r.load.seconds} s, ${r.load.failed} failed` : '-'} |`;
  return [
    `Measured by \`npm run bench:memory\` on ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC: \`${command}\` as \`npm start\` runs it, resident set size (MiB) of its process and every process it started, sampled once a second for ${setup.sampleSeconds} s after ${setup.settleSeconds} s left alone. Load: ${setup.triggers} triggers of a one-step in-app workflow to ${setup.users} users from ${setup.concurrency} clients, until every message is in its user's feed.`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; ${m.os}; Node ${m.node}; external server ${m.postgres}; load average ${m.loadAverage1m} at the start.`,
    '',
    '| run | idle after start | peak during load | idle after load | main process peak (VmHWM) | load done in |',
    '|---|---|---|---|---|---|',
    ...runs.map(row),
    '',
  ].join('\n');
}

async function main() {
  const at = new Date();
  const m = await machine();
  const command = startCommand('start');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-memory-'));
  const runs: Run[] = [];
  try {
    runs.push(await measure('embedded (PGlite), first start', { DATA_DIR: dataDir }, true));
    runs.push(await measure('embedded (PGlite), restart on the same DATA_DIR', { DATA_DIR: dataDir }, false));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  if (process.env.DATABASE_URL) {
    const db = await freshDatabase('bench_memory');
    const externalDir = await mkdtemp(path.join(os.tmpdir(), 'bench-memory-'));
    try {
      runs.push(await measure('external PostgreSQL (DATABASE_URL)', { DATA_DIR: externalDir, DATABASE_URL: db.url }, true));
    } finally {
      await db.drop();
      await rm(externalDir, { recursive: true, force: true });
    }
  } else {
    process.stdout.write('\nDATABASE_URL is unset: the external PostgreSQL baseline is not run\n');
  }
  for (const r of runs) if (r.exitCode !== 0) throw new Error(`${r.mode}: the service exited with ${r.exitCode} on SIGTERM`);

  const out = path.join(root, 'bench/results/memory.json');
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ bench: 'memory', at: at.toISOString(), command: command.text, setup, machine: m, runs }, null, 2)}\n`,
  );
  const file = path.join(root, 'BENCHMARKS.md');
  const current = await readFile(file, 'utf8');
  if (!current.includes(BEGIN) || !current.includes(END)) throw new Error(`BENCHMARKS.md has no ${BEGIN} ... ${END} section`);
  const [head, rest] = current.split(BEGIN);
  await writeFile(file, `${head}${BEGIN}\n${markdown(at, command.text, m, runs)}${END}${rest.slice(rest.indexOf(END) + END.length)}`);
  process.stdout.write(`\nwrote ${path.relative(process.cwd(), out)} and BENCHMARKS.md\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
