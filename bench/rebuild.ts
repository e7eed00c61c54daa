/**
 * Rebuild speed (issue 18): a log of BENCH_REBUILD_EVENTS events (1,000,000) of users being
 * identified (BENCH_REBUILD_USERS users, 100,000, each identified again and again with changing
 * properties), then:
 * - baseline: reading the whole log in the runtime's batches, doing nothing with it;
 * - `projections rebuild users`: the same events applied to the users read model;
 * - `projections rebuild users --verify`: the rebuild into shadow tables plus the comparison.
 * Events per second for each, in the same run, on a fresh database of DATABASE_URL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:rebuild
 *
 * Writes bench/results/rebuild.json and the part of BENCHMARKS.md between its markers.
 */
import 'reflect-metadata';
import { Database } from '@notify/database';
import { PostgresEventStore, START } from '@notify/eventstore';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { allMigrations } from '@notify/projections';
import { usersProjection } from '@notify/projections/users';
import { randomUUID } from 'node:crypto';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase } from './support/service';

const root = path.resolve(__dirname, '../..');
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const EVENTS = num('BENCH_REBUILD_EVENTS', 1_000_000);
const USERS = num('BENCH_REBUILD_USERS', 100_000);
const BATCH = num('PROJECTION_BATCH_SIZE', 500);
const BEGIN = '<!-- npm run bench:rebuild: begin -->';
const END = '<!-- npm run bench:rebuild: end -->';

const rate = (events: number, ms: number) => Math.round((events * 1000) / Math.max(ms, 1));

async function main(): Promise<void> {
  const db = await freshDatabase('bench_rebuild');
  const database = await Database.open({ url: db.url, poolSize: 8, entities: [], migrations: allMigrations });
  try {
    await database.migrate();
    const store = await PostgresEventStore.create({ pool: database.pool });
    // The log: 1,000 events an append, spread over the users.
    const writeStarted = Date.now();
    const at = Date.parse('2030-01-01T00:00:00.000Z');
    for (let written = 0; written < EVENTS;) {
      const n = Math.min(1000, EVENTS - written);
      const appends = Array.from({ length: n }, (_, i) => {
        const k = written + i;
        const user = `u${k % USERS}`;
        return {
          streamId: `user-bench-${user}-${k}`,
          expectedRevision: 'any' as const,
          events: [
            {
              id: randomUUID(),
              type: 'UserIdentified',
              data: {
                user_id: user,
                properties: { name: `User ${k % USERS}`, email: `${user}@example.com`, plan: k % 3 ? 'pro' : 'free', visits: k },
                identified_at: new Date(at + k).toISOString(),
              },
              metadata: { environment: 'bench', schema_version: 1 },
            },
          ],
        };
      });
      await store.appendMany(appends);
      written += n;
      if (written % 100_000 === 0) process.stdout.write(`  wrote ${written} events\n`);
    }
    const writeMs = Date.now() - writeStarted;

    // Baseline: the log read in the runtime's batches, nothing applied.
    const readStarted = Date.now();
    let read = 0;
    for (let after = START; ;) {
      const page = await store.readAll({ after, maxCount: BATCH, filter: usersProjection.filter, reader: 'bench' });
      read += page.events.length;
      if (page.scannedTo <= after) break;
      after = page.scannedTo;
    }
    const readMs = Date.now() - readStarted;

    const runtime = new ProjectionRuntime(store, database.dataSource, [usersProjection], { batchSize: BATCH });
    const rebuild = await runtime.rebuild('users');
    const verify = await runtime.verify('users');
    if (verify.differences.length) throw new Error(`the verifying rebuild found differences: ${JSON.stringify(verify.differences)}`);
    await store.close();

    const result = {
      at: new Date().toISOString(),
      machine: `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`,
      events: EVENTS,
      users: USERS,
      batch: BATCH,
      write: { ms: writeMs, perSecond: rate(EVENTS, writeMs) },
      baselineRead: { events: read, ms: readMs, perSecond: rate(read, readMs) },
      rebuild: { events: rebuild.events, ms: rebuild.ms, perSecond: rate(rebuild.events, rebuild.ms) },
      verify: { events: verify.events, ms: verify.ms, perSecond: rate(verify.events, verify.ms), differences: verify.differences.length },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    await mkdir(path.join(root, 'bench/results'), { recursive: true });
    await writeFile(path.join(root, 'bench/results/rebuild.json'), `${JSON.stringify(result, null, 2)}\n`);
    const table = [
      BEGIN,
      `Measured ${result.at.slice(0, 10)} on ${result.machine}; ${EVENTS.toLocaleString('en')} UserIdentified events over ` +
        `${USERS.toLocaleString('en')} users, live batches of ${BATCH} (the baseline reads those; a rebuild reads and applies at least 2,000 at once), ` +
        `real PostgreSQL (\`npm run bench:rebuild\`). Issue 18's target is 20,000 events/s for the rebuild.`,
      '',
      '| stage | events | time | events/s |',
      '|---|---|---|---|',
      `| writing the log (appends of 1,000) | ${EVENTS} | ${(writeMs / 1000).toFixed(1)} s | ${result.write.perSecond} |`,
      `| baseline: reading the log, nothing applied | ${read} | ${(readMs / 1000).toFixed(1)} s | ${result.baselineRead.perSecond} |`,
      `| \`projections rebuild users\` | ${rebuild.events} | ${(rebuild.ms / 1000).toFixed(1)} s | ${result.rebuild.perSecond} |`,
      `| \`projections rebuild users --verify\` (rebuild into shadow tables + row comparison) | ${verify.events} | ${(verify.ms / 1000).toFixed(1)} s | ${result.verify.perSecond} |`,
      END,
    ].join('\n');
    const file = path.join(root, 'BENCHMARKS.md');
    const text = await readFile(file, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    await writeFile(
      file,
      start >= 0 && end > start
        ? text.slice(0, start) + table + text.slice(end + END.length)
        : `${text.trimEnd()}\n\n## Rebuilds\n\n${table}\n`,
    );
  } finally {
    await database.close();
    await db.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
