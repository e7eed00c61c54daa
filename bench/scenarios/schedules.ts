import { readFile } from 'node:fs/promises';
import { defineWorkflow, inAppStep, startService } from '../support/service';
import { percentile, round, until } from '../support/load';
import { Seeder } from '../support/seed';
import type { Figure } from './engine';

/** Resident memory of a process, from /proc (Linux). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return round(kb / 1024);
}

/**
 * `count` schedules (one per user, an hourly rule) all due in the same minute: every run must
 * start within 60 s of it. The users and schedules are seeded into the log (as the API would
 * record them), then the scenario waits for the due minute with the service idle; the firing is
 * what is measured: runs started (RunEnqueued) per second, lateness of each run's start after
 * the due minute, and the service's resident memory, idle before and at its peak after.
 */
export async function scheduleBurst(count: number): Promise<Figure[]> {
  const service = await startService('schedules');
  try {
    await defineWorkflow(service, 'bench-digest', [inAppStep()]);
    const users = Array.from({ length: count }, (_, i) => `s${i}`);
    const seeder = await Seeder.open(service);
    await seeder.users(users);
    // The due minute: far enough ahead for the schedules to be seeded and projected (500-1,000/s
    // on a busy 2-core machine; measured and reported below), on a whole minute. The service is
    // idle between the end of the seeding and the due minute.
    const seedMs = Number(process.env.BENCH_SCHEDULES_SEED_MS ?? Math.max(90_000, count * 5));
    const due = new Date(Math.ceil((Date.now() + seedMs) / 60_000) * 60_000);
    const seeding = Date.now();
    await seeder.schedules('bench-digest', users, [
      { frequency: 'hourly', interval: 1, days: null, day_of_month: null, hours: null, minutes: due.getUTCMinutes() },
    ]);
    await seeder.close();
    const seededIn = Date.now() - seeding;
    const margin = due.getTime() - Date.now();
    if (margin < 5_000) throw new Error(`seeding took ${seededIn} ms and ended ${-margin} ms before the due minute: raise the estimate`);
    const notDue = Number(
      (await service.sql.query(`SELECT count(*) AS c FROM rm_schedules WHERE next_occurrence_at = $1`, [due])).rows[0].c,
    );
    if (notDue !== count) throw new Error(`${notDue} of ${count} schedules are due at ${due.toISOString()}`);

    const idle = await rssMb(service.pid);
    let peak = idle;
    const sampler = setInterval(
      () =>
        void rssMb(service.pid).then(
          (mb) => (peak = Math.max(peak, mb)),
          () => undefined,
        ),
      500,
    );
    const started = async () =>
      Number(
        (
          await service.sql.query(
            `SELECT count(*) AS c FROM es_events WHERE event_type = 'RunEnqueued' AND data->'trigger_source'->>'type' = 'schedule'`,
          )
        ).rows[0].c,
      );
    const done = await until(
      async () => Date.now() > due.getTime() && (await started()) >= count,
      due.getTime() - Date.now() + Math.max(600_000, count * 20),
      1000,
    );
    clearInterval(sampler);

    const rows = (
      await service.sql.query<{ ms: string }>(
        `SELECT (extract(epoch FROM created_at) * 1000)::bigint AS ms FROM es_events WHERE event_type = 'RunEnqueued' AND data->'trigger_source'->>'type' = 'schedule'`,
      )
    ).rows.map((r) => Number(r.ms) - due.getTime());
    const lateness = rows.sort((a, b) => a - b);
    const first = lateness[0] ?? 0;
    const last = lateness[lateness.length - 1] ?? 0;
    const within = lateness.filter((l) => l <= 60_000).length;
    const doubled = Number(
      (
        await service.sql.query(
          `SELECT count(*) AS c FROM (SELECT data->'trigger_source'->>'schedule_id' FROM es_events WHERE event_type = 'WorkflowTriggered' GROUP BY 1 HAVING count(*) > 1) d`,
        )
      ).rows[0].c,
    );
    const scenario = `${count} schedules due in the same minute (hourly rule, one per user)`;
    const note = `${lateness.length} of ${count} runs started${done ? '' : ' (not all within the wait)'}; seeded and projected in ${round(seededIn / 1000)} s; ${doubled} occurrences triggered twice`;
    return [
      { scenario, metric: 'runs started within 60 s of the due minute', value: within, unit: 'runs', note },
      {
        scenario,
        metric: 'run start rate',
        value: round(lateness.length / Math.max(0.001, (last - first) / 1000)),
        unit: 'runs/s',
        note: `first run ${round(first / 1000, 2)} s after the due minute, last ${round(last / 1000, 2)} s`,
      },
      { scenario, metric: 'lateness p50', value: round(percentile(lateness, 50) / 1000, 2), unit: 's' },
      { scenario, metric: 'lateness p99', value: round(percentile(lateness, 99) / 1000, 2), unit: 's' },
      {
        scenario,
        metric: 'service resident memory, peak while firing',
        value: peak,
        unit: 'MB',
        note: `idle before the due minute: ${idle} MB (api and worker in one process)`,
      },
    ];
  } finally {
    await service.stop();
  }
}
