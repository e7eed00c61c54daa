/**
 * Appends per second into the PostgreSQL event store: sequential single-event appends, and 8
 * concurrent writers each appending to its own streams (3 events per append, like a command that
 * writes an event or a few). Run against a scratch database:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_append npm run build && node dist/bench/append-rate.js
 */
import { PostgresEventStore } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';

const event = (i: number) => ({
  id: randomUUID(),
  type: 'UserIdentified',
  data: { user_id: `u${i}`, properties: { name: `User ${i}`, email: `u${i}@example.com` }, identified_at: new Date().toISOString() },
  metadata: { environment: 'development', schema_version: 1, correlation_id: randomUUID(), actor: 'bench' },
});

async function main() {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_append';
  const name = new URL(url).pathname.slice(1);
  const admin = new Client({ connectionString: url.replace(`/${name}`, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const pool = new Pool({ connectionString: url, max: 10 });
  const store = await PostgresEventStore.create({ pool });
  try {
    const seqCount = Number(process.env.SEQUENTIAL ?? 3000);
    let start = process.hrtime.bigint();
    for (let i = 0; i < seqCount; i++) await store.append(`user-development-s${i % 500}`, [event(i)]);
    const seqRate = seqCount / (Number(process.hrtime.bigint() - start) / 1e9);

    const writers = 8;
    const perWriter = Number(process.env.PER_WRITER ?? 600);
    start = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) await store.append(`user-development-w${w}-${i % 50}`, [event(i), event(i), event(i)]);
      }),
    );
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    console.log(
      JSON.stringify({
        sequential_appends_per_s: Math.round(seqRate),
        concurrent_appends_per_s: Math.round((writers * perWriter) / seconds),
        concurrent_events_per_s: Math.round((writers * perWriter * 3) / seconds),
      }),
    );
  } finally {
    await store.close();
    await pool.end();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
