/**
 * PostgreSQL's CPU per appended event: what `es_append` costs the database backend, against the
 * same rows written without the function around them. Needs the server on this machine (the
 * backend's CPU is read from /proc). Runs on a scratch database it creates and drops:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_append_cost npm run build && node dist/bench/append-cost.js
 *
 * Settings (environment): APPENDS (1500 per variant and round), EVENTS_PER_APPEND (10), ROUNDS (2).
 *
 * Variants, each the same events (a run's RunEnqueued-sized data and metadata, each event to a new
 * stream, as a fan-out or a group commit of triggers writes them):
 * - es_append: the function as the store calls it (locks, stream revisions, hash chain, insert);
 * - es_append, no hash chain: the same with `es_event_hash` answering NULL;
 * - insert + stream rows: one statement, the events and their stream rows, set-based;
 * - insert only: the events alone (the table and its indexes: the floor of any append).
 * Rounds alternate the variants, so a machine that slows down slows all of them.
 */
import { ensureEventStoreSchema } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client, Pool } from 'pg';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const APPENDS = num('APPENDS', 1500);
const PER = num('EVENTS_PER_APPEND', 10);
const ROUNDS = num('ROUNDS', 2);

const data = () => ({
  run_id: randomUUID(),
  workflow_run_id: randomUUID(),
  workflow_key: 'comment-created',
  recipient: { type: 'user', id: `user-${Math.floor(Math.random() * 1e6)}` },
  actor: { type: 'user', id: 'user-1' },
  tenant: null,
  data: { comment: 'A comment body of an ordinary length for a notification', project: { id: 'p-123', name: 'Project X' } },
  cancellation_key: null,
  trigger_source: 'api',
  trigger_position: '000000000000a1b2000000000000c3d4',
  subscribed_to: null,
  enqueued_at: new Date().toISOString(),
});
const metadata = () => ({ environment: 'development', schema_version: 1, correlation_id: randomUUID(), causation_id: randomUUID() });

type Variant = { name: string; sql: string; before?: string };

const ES_APPEND = 'SELECT * FROM es_append($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])';
const VARIANTS: Variant[] = [
  { name: 'es_append', sql: ES_APPEND },
  {
    name: 'es_append, no hash chain',
    sql: ES_APPEND,
    before: `CREATE OR REPLACE FUNCTION es_event_hash(p_prev bytea, p_id uuid, p_stream text, p_revision bigint, p_type text,
      p_data jsonb, p_metadata jsonb, p_created_at timestamptz) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$ SELECT NULL::bytea $$`,
  },
  {
    name: 'insert + stream rows',
    sql: `WITH s AS (INSERT INTO es_streams (stream_id, revision) SELECT x, 0 FROM unnest($1::text[]) x WHERE $2::text[] IS NOT NULL AND $3::int[] IS NOT NULL)
      INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, data, metadata)
      SELECT i, st, 0, t, d, m FROM unnest($4::uuid[], $1::text[], $5::text[], $6::jsonb[], $7::jsonb[]) AS u(i, st, t, d, m)`,
  },
  {
    name: 'insert only',
    sql: `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, data, metadata)
      SELECT i, st, 0, t, d, m FROM unnest($4::uuid[], $1::text[], $5::text[], $6::jsonb[], $7::jsonb[]) AS u(i, st, t, d, m)
      WHERE $2::text[] IS NOT NULL AND $3::int[] IS NOT NULL`,
  },
];

/** CPU (user + system) of a local process, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function params(): unknown[] {
  const streams = Array.from({ length: PER }, () => `run-development-${randomUUID()}`);
  return [
    streams,
    streams.map(() => 'no_stream'),
    streams.map(() => 1),
    streams.map(() => randomUUID()),
    streams.map(() => 'RunEnqueued'),
    streams.map(() => JSON.stringify(data())),
    streams.map(() => JSON.stringify(metadata())),
  ];
}

async function measure(url: string, variant: Variant): Promise<{ cpuUsPerEvent: number; msPerAppend: number }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    if (variant.before) await client.query(variant.before);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = rows[0].pid;
    for (let i = 0; i < 100; i++) await client.query(variant.sql, params()); // plans cached, caches warm
    const inputs = Array.from({ length: APPENDS }, params);
    const cpu0 = cpuMs(pid);
    const t0 = process.hrtime.bigint();
    for (const p of inputs) await client.query(variant.sql, p);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = cpuMs(pid) - cpu0;
    return { cpuUsPerEvent: (cpu * 1000) / (APPENDS * PER), msPerAppend: ms / APPENDS };
  } finally {
    await client.end();
  }
}

async function main() {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_append_cost';
  const name = new URL(url).pathname.slice(1);
  const adminUrl = url.replace(`/${name}`, '/postgres');
  const results = new Map<string, { cpu: number[]; ms: number[] }>(VARIANTS.map((v) => [v.name, { cpu: [], ms: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of VARIANTS) {
      // A fresh database per measurement: every variant appends to tables of the same size.
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const pool = new Pool({ connectionString: url, max: 1 });
      await ensureEventStoreSchema(pool, ['RunEnqueued', 'MessageCreated']);
      await pool.end();
      const r = await measure(url, variant);
      results.get(variant.name)!.cpu.push(r.cpuUsPerEvent);
      results.get(variant.name)!.ms.push(r.msPerAppend);
    }
  }
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  console.log(`\nPostgreSQL CPU per appended event (${APPENDS} appends of ${PER} events per measurement, ${ROUNDS} rounds)\n`);
  console.log('| variant | backend CPU per event (us), each round | ms per append (wall), each round |');
  console.log('|---|---|---|');
  for (const [variant, r] of results)
    console.log(`| ${variant} | ${r.cpu.map((x) => x.toFixed(0)).join(', ')} | ${r.ms.map((x) => x.toFixed(2)).join(', ')} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
