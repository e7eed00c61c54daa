/**
 * Real-time push latency: from a workflow trigger's HTTP answer to the `new-message` push on a
 * feed socket (phoenix client over `ws`), sequentially, in two layouts on a real PostgreSQL:
 * api and worker in one process (`npm start`), and a worker with two api processes where the
 * socket is on the api instance that did not take the trigger (LISTEN/NOTIFY fan-out, ADR 0077).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:realtime
 *
 * Settings (environment): BENCH_REALTIME_TRIGGERS (100); BENCH_SERVICE_ENV as for `npm run bench`. Prints the figures and writes
 * bench/results/realtime.json.
 */
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { Socket } from 'phoenix';
import WebSocket from 'ws';
import type { Figure } from './scenarios/engine';
import { percentile, round, until } from './support/load';
import { extraServiceEnv, freshDatabase, spawnListening, startCommand, stopChild } from './support/service';

const SK = 'sk_bench_realtime_0123456789abcdef';
const PK = 'pk_bench_realtime_0123456789abcdef';

async function measure(layout: 'one-process' | 'worker+2-api', triggers: number): Promise<Figure[]> {
  const db = await freshDatabase('bench_realtime');
  const env = {
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_ENABLED: 'false',
    BOOTSTRAP_SECRET_KEY: SK,
    BOOTSTRAP_PUBLISHABLE_KEY: PK,
    ...extraServiceEnv(),
  };
  const children: ChildProcess[] = [];
  const sql = new Pool({ connectionString: db.url, max: 2 });
  let socket: Socket | undefined;
  try {
    let triggerUrl: string;
    let socketUrl: string;
    if (layout === 'one-process') {
      const start = startCommand('start');
      const server = await spawnListening(start.entry, env, start.nodeArgs);
      children.push(server.child);
      triggerUrl = socketUrl = server.url;
    } else {
      // The worker serves no HTTP: started as is, it is ready once the api instances answer reads of the bootstrap key.
      const worker = startCommand('start:worker');
      const api = startCommand('start:api');
      children.push(
        spawn(process.execPath, [...worker.nodeArgs, path.resolve(__dirname, '../..', worker.entry)], {
          env: { PATH: process.env.PATH ?? '', ...env },
          stdio: 'ignore',
        }),
      );
      const [a, b] = await Promise.all([spawnListening(api.entry, env, api.nodeArgs), spawnListening(api.entry, env, api.nodeArgs)]);
      children.push(a.child, b.child);
      triggerUrl = a.url;
      socketUrl = b.url;
    }
    const auth = { authorization: `Bearer ${SK}`, 'content-type': 'application/json' };
    await until(
      async () =>
        (await fetch(`${triggerUrl}/v1/users/nobody`, { headers: auth })).status === 404 &&
        (await fetch(`${socketUrl}/v1/users/nobody`, { headers: auth })).status === 404,
      60_000,
      100,
    );
    await fetch(`${triggerUrl}/v1/users/bench-rt`, { method: 'PUT', headers: auth, body: JSON.stringify({ name: 'Bench' }) });
    const channelId = (await sql.query<{ id: string }>("SELECT id FROM rm_channels WHERE key = 'in-app'")).rows[0].id;
    socket = new Socket(`${socketUrl.replace('http', 'ws')}/ws/v1`, { params: { api_key: PK }, transport: WebSocket as never });
    socket.connect();
    const channel = socket.channel(`feeds:${channelId}:bench-rt`, { bench: {} });
    let arrived: (() => void) | undefined;
    channel.on('new-message', () => arrived?.());
    await new Promise<void>((resolve, reject) =>
      channel
        .join()
        .receive('ok', () => resolve())
        .receive('error', reject),
    );
    const latencies: number[] = [];
    let missed = 0;
    for (let i = 0; i < triggers; i++) {
      let timeout: NodeJS.Timeout | undefined;
      const pushed = new Promise<boolean>((resolve) => {
        arrived = () => resolve(true);
        timeout = setTimeout(() => resolve(false), 30_000);
      }).finally(() => clearTimeout(timeout));
      const started = performance.now();
      const res = await fetch(`${triggerUrl}/v1/workflows/welcome/trigger`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ recipients: ['bench-rt'], data: { message: String(i) } }),
      });
      if (res.status !== 200) throw new Error(`trigger answered ${res.status}`);
      if (await pushed) latencies.push(performance.now() - started);
      else missed++;
    }
    const note = `${triggers} sequential triggers; socket on ${layout === 'one-process' ? 'the same process' : 'the other api instance'}`;
    return [
      { scenario: `realtime ${layout}`, metric: 'trigger -> new-message p50', value: round(percentile(latencies, 50)), unit: 'ms', note },
      { scenario: `realtime ${layout}`, metric: 'trigger -> new-message p95', value: round(percentile(latencies, 95)), unit: 'ms' },
      { scenario: `realtime ${layout}`, metric: 'trigger -> new-message p99', value: round(percentile(latencies, 99)), unit: 'ms' },
      { scenario: `realtime ${layout}`, metric: 'trigger -> new-message max', value: round(Math.max(...latencies)), unit: 'ms' },
      { scenario: `realtime ${layout}`, metric: 'pushes missing after 30 s', value: missed, unit: '' },
    ];
  } finally {
    socket?.disconnect();
    for (const child of children) await stopChild(child);
    await sql.end();
    await db.drop();
  }
}

async function main() {
  const triggers = Number(process.env.BENCH_REALTIME_TRIGGERS ?? 100);
  const figures = [...(await measure('one-process', triggers)), ...(await measure('worker+2-api', triggers))];
  for (const f of figures) process.stdout.write(`${f.scenario}: ${f.metric} = ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}\n`);
  const out = path.resolve(__dirname, '../../bench/results/realtime.json');
  await mkdir(path.dirname(out), { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadavg: os.loadavg().map((l) => round(l, 2)),
  };
  await writeFile(out, `${JSON.stringify({ at: new Date().toISOString(), triggers, machine, figures }, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
