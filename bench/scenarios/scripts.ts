import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Figure } from './engine';
import { startCommand } from '../support/service';

const run = promisify(execFile);

/** Runs one of the standalone bench scripts (built into dist/bench), after `nodeArgs`, and reads the JSON it writes. */
async function script(name: string, result: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<any> {
  await run(process.execPath, [...nodeArgs, '--enable-source-maps', path.resolve(__dirname, `../${name}.js`)], {
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(await readFile(path.resolve('bench/results', result), 'utf8'));
}

/** Bulk identify of 10,000 users through the public API (bench/bulk-identify.ts). */
export async function bulkIdentify(users: number): Promise<Figure[]> {
  const r = await script('bulk-identify', 'bulk-identify.json', { BENCH_USERS: String(users) });
  return [
    {
      scenario: `bulk identify: ${r.users} users in ${r.requests} requests`,
      metric: 'processed',
      value: r.items_per_second,
      unit: 'items/s',
      note: `all processed after ${r.processed_ms} ms`,
    },
    {
      scenario: `bulk identify: ${r.users} users in ${r.requests} requests`,
      metric: 'visible in GET /v1/users',
      value: r.visible_items_per_second,
      unit: 'items/s',
      note: `all visible after ${r.visible_ms} ms`,
    },
  ];
}

/** Log -> Kafka relay against a bare kafkajs producer on the same broker (bench/relay.ts). */
export async function relay(events: number): Promise<Figure[]> {
  if (!process.env.KAFKA_BROKERS) {
    return [
      {
        scenario: 'Kafka relay',
        metric: 'not run',
        value: '-',
        unit: '',
        note: 'KAFKA_BROKERS is unset (bash scripts/kafka/start.sh starts a broker)',
      },
    ];
  }
  // The relay runs in the worker: its script runs under the worker's start command's node options
  // (ADR 0279), the bare producer in the same process under the same.
  const r = await script('relay', 'relay.json', { BENCH_EVENTS: String(events) }, startCommand('start:worker').nodeArgs);
  const note = `${r.setup.events} events of ${r.setup.recordValueBytes} bytes, batches of ${r.setup.batch}, acks=all, ${r.setup.partitions} partitions; median of ${r.setup.rounds} rounds`;
  const figures: Figure[] = r.results.map((x: { name: string; eventsPerSecond: number }) => ({
    scenario: `Kafka: ${x.name}`,
    metric: 'throughput',
    value: x.eventsPerSecond,
    unit: 'events/s',
    note,
  }));
  // Whether a side was bound by its CPU: the process's CPU time per round against the round's length.
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const relayCpu: number[] = (r.relayStages ?? []).map((s: { cpuMs: number }) => s.cpuMs);
  if (relayCpu.length && r.bareCpuMs?.length) {
    figures.push(
      {
        scenario: 'Kafka: relay round',
        metric: 'process CPU (median)',
        value: mid(relayCpu),
        unit: 'ms',
        note: `${events} events; producer on its own thread (ADR 0282)`,
      },
      {
        scenario: 'Kafka: bare producer round, one batch at a time',
        metric: 'process CPU (median)',
        value: mid(r.bareCpuMs),
        unit: 'ms',
        note: `${events} events`,
      },
    );
  }
  return figures;
}
