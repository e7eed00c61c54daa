/**
 * Feed reads of a user with 10,000 in-app messages at 200 reads/s, against a bare keyset-query
 * endpoint on the same database in the same run.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:feed
 *
 * Settings (environment): BENCH_FEED_MESSAGES (10000), BENCH_FEED_RATE (200), BENCH_FEED_SECONDS (20).
 * Prints the figures and writes bench/results/feed.json (BENCHMARKS.md is left to `npm run bench`).
 */
import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { feedReads } from './scenarios/feed';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function main() {
  const setup = { messages: num('BENCH_FEED_MESSAGES', 10_000), rate: num('BENCH_FEED_RATE', 200), seconds: num('BENCH_FEED_SECONDS', 20) };
  // The machine is shared: its load around the run says how much of it the bench had.
  const loadBefore = os.loadavg()[0];
  const figures = await feedReads(setup.messages, setup.rate, setup.seconds);
  const loadAfter = os.loadavg()[0];
  for (const f of figures) process.stdout.write(`${f.scenario}: ${f.metric} = ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}\n`);
  const out = path.resolve(__dirname, '../../bench/results/feed.json');
  await mkdir(path.dirname(out), { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage1m: { before: loadBefore, after: loadAfter },
  };
  process.stdout.write(`load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)} on ${machine.cpus} cores\n`);
  await writeFile(out, `${JSON.stringify({ at: new Date().toISOString(), setup, machine, figures }, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
