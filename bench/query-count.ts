/**
 * Where the database round trips of a trigger go: boots api and worker in-process on a fresh
 * database, sends 200 sequential triggers (1 recipient, one in-app step) and prints the
 * statements the service issued per trigger, most frequent first. Sequential triggers are the
 * worst case (no batching); under load the worker's batches amortize most of them.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node dist/bench/query-count.js
 *
 * IDEM=1 sends an Idempotency-Key with every trigger (as the official clients do).
 * QC_CONCURRENCY=<n> sends 2,000 triggers, n at a time: the statements per trigger under load.
 * QC_FANOUT=<n> counts instead one trigger to an object with n subscribers (seeded as the fan-out
 * scenario seeds them), per run, until every message is in the feed's read model.
 * QC_STACKS=<text> also prints where the statements containing <text> were issued from (the
 * project's own frames of the caller's stack, most frequent first).
 */
import 'reflect-metadata';
import { parseConfig } from '@notify/config';
import { createLogger } from '@notify/logging';
import { startHttp } from '@notify/platform';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import pg from 'pg';
import { ApiModule } from '../apps/api/src/api.module';
import { WorkerModule } from '../apps/worker/src/worker.module';
import { WorkflowsModule } from '../apps/api/src/workflows/workflows.module';
import { INLINE_RUNS } from '@notify/platform';
import type { InlineRuns } from '@notify/application';
import { Seeder } from './support/seed';
import type { BenchService } from './support/service';

const counts = new Map<string, number>();
const stacks = new Map<string, number>();
const stackFilter = process.env.QC_STACKS;
let counting = false;
const orig = (pg as any).Client.prototype.query;
(pg as any).Client.prototype.query = function (q: any, ...rest: any[]) {
  if (counting) {
    const text = (typeof q === 'string' ? q : (q?.text ?? '?')).replace(/\s+/g, ' ').slice(0, 110);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    if (stackFilter && text.includes(stackFilter)) noteStack();
  }
  return orig.call(this, q, ...rest);
};
// pg.Pool#query hands the statement to a client later, out of the caller's async stack: note the
// caller's frames there too.
const origPool = (pg as any).Pool.prototype.query;
(pg as any).Pool.prototype.query = function (q: any, ...rest: any[]) {
  if (counting && stackFilter) {
    const text = typeof q === 'string' ? q : (q?.text ?? '?');
    if (text.replace(/\s+/g, ' ').includes(stackFilter)) noteStack();
  }
  return origPool.call(this, q, ...rest);
};
function noteStack() {
  const frames = (new Error().stack ?? '')
    .split('\n')
    .slice(3)
    .filter((f) => f.includes('/dist/') && !f.includes('node_modules') && !f.includes('query-count'))
    .slice(0, 4)
    .map((f) => f.trim().replace(/\(.*\/dist\//, '('))
    .join(' < ');
  stacks.set(frames, (stacks.get(frames) ?? 0) + 1);
}

async function main() {
  const serverUrl = process.env.DATABASE_URL!;
  const name = `qprof_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const sk = `sk_bench_${randomBytes(16).toString('hex')}`;
  const masterKey = randomBytes(32);
  const svc = `svc_bench_${randomBytes(16).toString('hex')}`;
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url.toString(),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    BOOTSTRAP_SECRET_KEY: sk,
    BOOTSTRAP_SERVICE_TOKEN: svc,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    ERASURE_MASTER_KEY: masterKey.toString('hex'),
  });
  const mods = [ApiModule.register(), WorkerModule.register()];
  const app = await startHttp(config, createLogger('silent', { role: 'q' }), mods);
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const call = async (method: string, p: string, body: unknown, key: string, headers: Record<string, string> = {}) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const t = await r.text();
    if (r.status >= 400) throw new Error(`${p} ${r.status} ${t}`);
    return t;
  };
  await new Promise((r) => setTimeout(r, 1500));
  await call(
    'PUT',
    '/v1/workflows/qqq?environment=development',
    {
      workflow: {
        name: 'q',
        steps: [
          { type: 'channel', ref: 'a', channel_key: 'in-app', channel_type: 'in_app_feed', template: { markdown_body: 'hi {{ data.n }}' } },
        ],
      },
    },
    svc,
  );
  await call('PUT', '/v1/workflows/qqq/activate?environment=development', { status: true }, svc);
  await call('PUT', '/v1/users/u1', { name: 'U1' }, sk);
  for (let i = 0; i < 20; i++) await call('POST', '/v1/workflows/qqq/trigger', { recipients: ['u1'], data: { n: i } }, sk);
  await new Promise((r) => setTimeout(r, 3000));
  const fanout = Number(process.env.QC_FANOUT ?? 0);
  let N = 200;
  if (fanout > 0) {
    N = fanout;
    const sql = new pg.Pool({ connectionString: url.toString(), max: 2 });
    const users = Array.from({ length: fanout }, (_, i) => `f${i}`);
    const service = { databaseUrl: url.toString(), sql, erasureMasterKey: masterKey } as unknown as BenchService;
    const seeder = await Seeder.open(service);
    await seeder.users(users);
    await seeder.subscriptions('teams', 'everyone', users);
    await seeder.close();
    const visible = async () => Number((await sql.query(`SELECT count(*) AS c FROM rm_messages WHERE recipient_id LIKE 'f%'`)).rows[0].c);
    await new Promise((r) => setTimeout(r, 3000));
    counting = true;
    await call('POST', '/v1/workflows/qqq/trigger', { recipients: [{ id: 'everyone', collection: 'teams' }], data: { n: 1 } }, sk);
    while ((await visible()) < fanout) await new Promise((r) => setTimeout(r, 200));
    await sql.end();
    // The bench's own polls are not the service's.
    for (const text of [...counts.keys()]) if (text.includes("recipient_id LIKE 'f%'")) counts.delete(text);
  } else {
    counting = true;
    const idem = process.env.IDEM === '1';
    // QC_CONCURRENCY=<n>: n triggers in flight at once (2,000 in all), as under load.
    const concurrency = Number(process.env.QC_CONCURRENCY ?? 1);
    if (concurrency > 1) N = 2000;
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < N; i = next++)
        await call(
          'POST',
          '/v1/workflows/qqq/trigger',
          { recipients: ['u1'], data: { n: i } },
          sk,
          idem ? { 'idempotency-key': randomBytes(8).toString('hex') } : {},
        );
    };
    await Promise.all(Array.from({ length: concurrency }, sender));
  }
  await new Promise((r) => setTimeout(r, 5000));
  counting = false;
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  // Pollers on timers of their own (due schedules, broadcasts and timers), whatever the triggers
  // do: how many of them fall in the window depends on how long the 200 triggers took.
  const polling = [...counts]
    .filter(([text]) => /rm_schedules|rm_broadcasts|FROM rm_timers WHERE fired_at IS NULL/.test(text))
    .reduce((a, [, n]) => a + n, 0);
  // The trigger endpoint's (the worker has its own, for broadcast pages).
  const inline = app.select(WorkflowsModule).get<InlineRuns | null>(INLINE_RUNS, { strict: true });
  console.log(
    inline
      ? `triggers whose runs executed with them (ADR 0258): ${inline.stats.planned}; left to the worker: ${inline.stats.behind} (read models behind), ${inline.stats.declined} (plan declined)`
      : 'runs executed with their trigger: off',
  );
  console.log(
    `queries per ${fanout ? 'run' : 'trigger'} (api+worker, ${N} ${fanout ? 'runs of one trigger' : 'triggers'}): ${(total / N).toFixed(1)}; without the pollers of schedules, broadcasts and timers: ${((total - polling) / N).toFixed(1)}`,
  );
  for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / N).toFixed(2).padStart(7), k);
  for (const [k, v] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log((v / N).toFixed(2).padStart(7), k);
  // Log entries per run (issue 19): every run and message stream entry of the workflow, by type.
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  const { rows: logged } = await db.query<{ type: string; n: string; runs: string }>(
    `SELECT event_type AS type, count(*) AS n, (SELECT count(*) FROM es_events WHERE event_type = 'RunEnqueued') AS runs
     FROM es_events WHERE stream_id LIKE 'run-%' OR stream_id LIKE 'message-%' GROUP BY 1 ORDER BY 2 DESC`,
  );
  const runs = Number(logged[0]?.runs ?? 0);
  const entries = logged.reduce((a, r) => a + Number(r.n), 0);
  console.log(`log entries per run (runs and messages, ${runs} runs): ${(entries / runs).toFixed(2)}`);
  for (const r of logged) console.log((Number(r.n) / runs).toFixed(2).padStart(7), r.type);
  await db.end();
  await app.close();
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
