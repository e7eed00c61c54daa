/**
 * `npm run bench`: every benchmark against a real PostgreSQL (DATABASE_URL), each on a fresh
 * database with the service in a child process, the baseline in the same run. Prints the figures
 * and writes BENCHMARKS.md. BENCH_ONLY=baseline,accept,... runs a subset; BENCH_QUICK=1 shortens.
 * The Kafka relay scenario needs KAFKA_BROKERS (it reports itself as not run otherwise).
 * Every scenario runs in a fresh bench process: the load generator shares the cores with the
 * service, and what an earlier scenario left in its heap (tens of megabytes after the sustained
 * load's 12,500 requests) made its garbage collection part of later scenarios' latencies.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { acceptRate, baseline, batching, fanout, Figure, latency, overload, sustained } from './scenarios/engine';
import { bulkIdentify, relay } from './scenarios/scripts';
import { feedReads } from './scenarios/feed';
import { scheduleBurst } from './scenarios/schedules';
import { broadcastToAudience } from './scenarios/broadcasts';
import { serverUrl } from './support/service';

const quick = process.env.BENCH_QUICK === '1';
const BEGIN = '<!-- npm run bench: begin -->';
const END = '<!-- npm run bench: end -->';
const rates = process.env.BENCH_RATES ? process.env.BENCH_RATES.split(',').map(Number) : undefined;
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const wanted = (name: string) => only.size === 0 || only.has(name);

const scenarios: [string, () => Promise<Figure[]>][] = [
  ['baseline', () => baseline(quick ? 5 : 10)],
  ['accept', () => acceptRate(quick ? 5 : 10)],
  // The api in its own process with the worker stopped: the accept path's own cost.
  ['accept-api', () => acceptRate(quick ? 5 : 10, true)],
  // BENCH_RATES=750,1000 tries only those rates.
  ['sustained', () => sustained(rates ?? (quick ? [250, 500] : [250, 500, 750, 1000, 1250]), quick ? 5 : 10)],
  ['latency', () => latency(Number(process.env.BENCH_LATENCY_RATE ?? 200), quick ? 5 : 20)],
  // Twice the sustained rate the issue measured (300 runs/s); BENCH_OVERLOAD_RATE sets another.
  [
    'overload',
    () =>
      overload(
        Number(process.env.BENCH_OVERLOAD_RATE ?? 600),
        quick ? 5 : 10,
        Number(process.env.BENCH_OVERLOAD_RECOVERY ?? (quick ? 20 : 30)),
      ),
  ],
  // BENCH_FANOUT=100000 measures the issue's second fan-out size.
  ['fanout', () => fanout(Number(process.env.BENCH_FANOUT ?? (quick ? 1000 : 10_000)))],
  [
    'batch',
    () =>
      batching(
        Number(process.env.BENCH_BATCH_TRIGGERS ?? (quick ? 1000 : 10_000)),
        100,
        Number(process.env.BENCH_BATCH_WINDOW ?? (quick ? 10 : 60)),
      ),
  ],
  ['bulk', () => bulkIdentify(quick ? 2000 : 10_000)],
  ['relay', () => relay(quick ? 5000 : 20_000)],
  ['feed', () => feedReads(10_000, 200, quick ? 5 : 20)],
  ['schedules', () => scheduleBurst(Number(process.env.BENCH_SCHEDULES ?? (quick ? 10_000 : 100_000)))],
  ['broadcast', () => broadcastToAudience(Number(process.env.BENCH_BROADCAST ?? (quick ? 10_000 : 100_000)))],
];

async function machine(): Promise<string[]> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  const { rows } = await client.query<{ version: string }>('SELECT version()');
  await client.end();
  const cpus = os.cpus();
  return [
    `- CPU: ${cpus[0]?.model ?? 'unknown'}, ${cpus.length} cores; memory ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    `- ${rows[0].version.split(',')[0]} on the same machine; Node ${process.version}; ${os.type()} ${os.release()}`,
    '- The service runs as `npm start` would (api and worker in one process) in a child process; the load generator runs in a fresh bench process per scenario on the same 2 cores.',
  ];
}

/** Runs one scenario in a child bench process (same node options and environment) and reads back its figures. */
async function inChild(name: string): Promise<Figure[]> {
  const out = path.join(os.tmpdir(), `bench-figures-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, __filename], {
      env: { ...process.env, BENCH_SCENARIO: name, BENCH_FIGURES_OUT: out },
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`scenario ${name} failed (exit ${code})`);
  try {
    return JSON.parse(await readFile(out, 'utf8')) as Figure[];
  } finally {
    await rm(out, { force: true });
  }
}

/**
 * Run the one scenario named by BENCH_SCENARIO: in a child, its figures go to BENCH_FIGURES_OUT;
 * run by hand (`BENCH_SCENARIO=broadcast node dist/bench/run.js`, no BENCH_FIGURES_OUT) they are
 * printed, and BENCHMARKS.md is left as it is.
 */
async function child(name: string, out: string | undefined) {
  const run = scenarios.find(([n]) => n === name)?.[1];
  if (!run) throw new Error(`unknown scenario ${name} (one of ${scenarios.map(([n]) => n).join(', ')})`);
  const figures = await run();
  if (out) await writeFile(out, JSON.stringify(figures));
  else for (const f of figures) process.stdout.write(`${f.scenario}: ${f.metric} = ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}\n`);
}

async function main() {
  const started = new Date();
  const figures: Figure[] = [];
  for (const [name] of scenarios) {
    if (!wanted(name)) continue;
    process.stdout.write(`\n== ${name}\n`);
    const result = await inChild(name);
    for (const f of result) process.stdout.write(`${f.scenario}: ${f.metric} = ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}\n`);
    figures.push(...result);
  }
  const rows = figures.map((f) => `| ${f.scenario} | ${f.metric} | ${f.value} ${f.unit} | ${f.note ?? ''} |`);
  const doc = [
    `Measured by \`npm run bench\` on ${started.toISOString().slice(0, 10)}${quick ? ' (quick mode: shorter runs)' : ''}. Re-run it to refresh this file.`,
    '',
    '## Machine',
    '',
    ...(await machine()),
    '',
    '## Figures',
    '',
    '| scenario | metric | value | notes |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  // BENCHMARKS.md keeps its hand-written analysis; only the part between the markers is replaced.
  const file = path.resolve(__dirname, '../../BENCHMARKS.md');
  const current = await readFile(file, 'utf8').catch(() => `${BEGIN}\n${END}\n`);
  const [head, rest] = current.includes(BEGIN) ? current.split(BEGIN) : [`${current}\n`, `\n${END}`];
  const tail = rest.includes(END) ? rest.slice(rest.indexOf(END) + END.length) : '';
  await writeFile(file, `${head}${BEGIN}\n${doc}\n${END}${tail}`);
  process.stdout.write(`\nwrote BENCHMARKS.md (${figures.length} figures)\n`);
}

(process.env.BENCH_SCENARIO ? child(process.env.BENCH_SCENARIO, process.env.BENCH_FIGURES_OUT) : main()).catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
