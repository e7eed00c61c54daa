import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { BenchService, defineWorkflow, freshDatabase, inAppStep, spawnListening, startService, stopChild } from '../support/service';
import { atRate, BoundedClient, closedLoop, percentile, round, until, untilCount } from '../support/load';
import { Seeder } from '../support/seed';
import { cpuMs, databaseCpuMs, databaseCpuSince } from '../support/rss';

export interface Figure {
  scenario: string;
  metric: string;
  value: number | string;
  unit: string;
  note?: string;
}

/**
 * BENCH_IDEMPOTENCY_KEYS=1: every trigger of the accept scenarios carries a fresh Idempotency-Key,
 * as the official clients send one with every POST.
 */
const freshKeys = process.env.BENCH_IDEMPOTENCY_KEYS === '1';

async function hammer(url: string, body: unknown, headers: Record<string, string>, seconds: number, connections = 32) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    connections,
    duration: seconds,
    ...(freshKeys
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                headers: { ...request.headers, 'idempotency-key': randomUUID() },
              }),
            },
          ],
        }
      : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

/** A bare endpoint doing one INSERT per request: what any service on this machine and database can do at best. */
export async function baseline(seconds: number): Promise<Figure[]> {
  const db = await freshDatabase('bench_baseline');
  const { child, url } = await spawnListening('dist/bench/baseline-server.js', { DATABASE_URL: db.url, DATABASE_POOL_SIZE: '20' });
  const sql = new Pool({ connectionString: db.url, max: 1 });
  try {
    await hammer(`${url}/insert`, { warm: true }, {}, 2);
    const database = new URL(db.url).pathname.slice(1);
    const [cpuBefore, dbBefore] = [await cpuMs(child.pid!), await databaseCpuMs(sql, database)];
    const r = await hammer(`${url}/insert`, { n: 1 }, {}, seconds);
    const cpu = (await cpuMs(child.pid!)) - cpuBefore;
    const dbCpu = databaseCpuSince(dbBefore, await databaseCpuMs(sql, database));
    return [
      {
        scenario: 'baseline: bare HTTP endpoint, one INSERT per request',
        metric: 'throughput',
        value: round(r.rps),
        unit: 'req/s',
        note: `p50 ${r.p50} ms, p99 ${r.p99} ms, 32 connections; ${cpuPerRequest(cpu, r.total)} CPU ms per request in the server process, ${cpuPerRequest(dbCpu, r.total)} in its PostgreSQL backends`,
      },
    ];
  } finally {
    await sql.end();
    await stopChild(child);
    await db.drop();
  }
}

/**
 * The trigger endpoint alone: how many triggers it records per second (runs execute meanwhile,
 * in the same process). `apiAlone`: the api in its own process with no worker running (the
 * worker projects the setup, then stops), so the figure is the api's own cost.
 */
export async function acceptRate(seconds: number, apiAlone = false): Promise<Figure[]> {
  const service = await startService(apiAlone ? 'accept_api' : 'accept', {}, { split: apiAlone });
  try {
    await defineWorkflow(service, 'bench-inapp', [inAppStep()]);
    await service.call('PUT', '/v1/users/u1', { name: 'U1' });
    const url = `${service.url}/v1/workflows/bench-inapp/trigger`;
    const auth = { authorization: `Bearer ${service.secretKey}` };
    if (apiAlone) {
      // The worker has projected what the trigger reads once one is accepted; then it stops.
      const accepted = await until(
        async () =>
          (await service.call('POST', '/v1/workflows/bench-inapp/trigger', { recipients: ['u1'], data: { n: 0 } })).status === 200,
        30_000,
        50,
      );
      if (!accepted) throw new Error('accept-api: no trigger was accepted within 30 s');
      await service.stopWorker();
    }
    await hammer(url, { recipients: ['u1'], data: { n: 0 } }, auth, 2);
    const database = new URL(service.databaseUrl).pathname.slice(1);
    const [cpuBefore, dbBefore] = [await cpuMs(service.pid), await databaseCpuMs(service.sql, database)];
    const r = await hammer(url, { recipients: ['u1'], data: { n: 1 } }, auth, seconds);
    const cpu = (await cpuMs(service.pid)) - cpuBefore;
    const dbCpu = databaseCpuSince(dbBefore, await databaseCpuMs(service.sql, database));
    const executedBy = await triggerRunsExecutedBy(service.url);
    return [
      {
        scenario: `${apiAlone ? 'trigger endpoint, api process alone (no worker; 1 recipient)' : 'trigger endpoint alone (1 recipient)'}${freshKeys ? ', a fresh Idempotency-Key each' : ''}`,
        metric: 'accepted',
        value: round(r.rps),
        unit: 'triggers/s',
        note: `p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.non2xx} non-2xx; ${cpuPerRequest(cpu, r.total)} CPU ms per trigger in the ${apiAlone ? 'api' : 'service'} process, ${cpuPerRequest(dbCpu, r.total)} in its PostgreSQL backends; runs executed by (ADR 0258): ${executedBy}`,
      },
    ];
  } finally {
    await service.stop();
  }
}

/** The service's `notify_trigger_runs_total` counts (who executed the triggers' runs, ADR 0258), as `label=count` pairs. */
export async function triggerRunsExecutedBy(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = [...text.matchAll(/^notify_trigger_runs_total\{executed_by="([^"]+)"\} (\d+)/gm)].map((m) => `${m[1]}=${m[2]}`);
  return counts.length ? counts.join(', ') : 'worker (not counted: off)';
}

/** CPU milliseconds per request, from a process's CPU time over a load run (10 ms clock ticks: meaningful over thousands of requests). */
function cpuPerRequest(cpuMsUsed: number, requests: number): string {
  return requests > 0 ? (cpuMsUsed / requests).toFixed(2) : 'n/a';
}

async function visibleCount(service: BenchService): Promise<number> {
  return Number((await service.sql.query("SELECT count(*) AS c FROM rm_messages WHERE environment = 'development'")).rows[0].c);
}

/**
 * Completed runs per second the whole system sustains: triggers (1 recipient, one in-app step)
 * at a fixed rate for `seconds`; sustained when every message is visible within 2 s after the
 * last trigger (no growing backlog), and the service answered the triggers at the rate they
 * were sent (a service that takes 70 s to answer 10 s of triggers has a backlog of its own, in
 * its connection queue).
 */
export async function sustained(rates: number[], seconds: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  // The highest rate kept up with, and every lower rate too (a lucky run above a failed one does not count).
  let best = 0;
  let failedBelow = false;
  for (const rate of [...rates].sort((a, b) => a - b)) {
    const service = await startService(`sustained${rate}`);
    try {
      await defineWorkflow(service, 'bench-inapp', [inAppStep()]);
      const users = Array.from({ length: Math.round(rate * seconds) }, (_, i) => `s${i}`);
      const seeder = await Seeder.open(service);
      await seeder.users(users);
      await seeder.close();
      const base = await visibleCount(service);
      const started = Date.now();
      const client = new BoundedClient(service.url);
      const sent = await atRate(rate, seconds, async (i) => {
        const res = await client.post(
          '/v1/workflows/bench-inapp/trigger',
          { recipients: [users[i]], data: { n: i } },
          { authorization: `Bearer ${service.secretKey}` },
        );
        if (res.status !== 200) throw new Error(String(res.status));
      });
      await client.close();
      const sendDone = Date.now();
      const atStop = (await visibleCount(service)) - base;
      const drained = await until(async () => (await visibleCount(service)) - base >= sent.sent - sent.errors && Date.now(), 60_000, 50);
      const drainMs = drained ? drained - sendDone : Infinity;
      const completedRate = (sent.sent - sent.errors) / (((drained ?? Date.now()) - started) / 1000);
      const answeredIn = (sendDone - started) / 1000;
      const ok = drainMs <= 2000 && sent.errors === 0 && answeredIn <= seconds + 2;
      if (ok && !failedBelow) best = rate;
      if (!ok) failedBelow = true;
      figures.push({
        scenario: `sustained load at ${rate} triggers/s for ${seconds} s (1 recipient, in-app)`,
        metric: 'completed',
        value: round(completedRate),
        unit: 'runs/s',
        note: `${ok ? 'kept up' : 'backlog grew'}: last answer ${round(answeredIn, 1)} s after the first trigger, ${atStop}/${sent.sent} visible then, the rest ${round(drainMs / 1000, 2)} s later; ${sent.errors} failed requests${sent.errors ? ` (${sent.failures})` : ''}, ${client.refused} refused (429/503); at most 64 connections; runs executed by: ${await triggerRunsExecutedBy(service.url)}`,
      });
    } finally {
      await service.stop();
    }
  }
  figures.push({ scenario: 'sustained load', metric: 'highest rate kept up with', value: best, unit: 'runs/s' });
  return figures;
}

/** Trigger -> message visible in the read model the feed reads, at a fixed trigger rate. */
export async function latency(rate: number, seconds: number): Promise<Figure[]> {
  const service = await startService('latency');
  try {
    await defineWorkflow(service, 'bench-inapp', [inAppStep()]);
    const users = Array.from({ length: Math.round(rate * seconds) }, (_, i) => `l${i}`);
    const seeder = await Seeder.open(service);
    await seeder.users(users);
    await seeder.close();
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    const acceptMs: number[] = [];
    // When each message was first seen in the read model, by the database's clock (the stages
    // below are differences of the database's own timestamps, never of two clocks).
    const seenAt = new Map<string, number>();
    let polling = true;
    const poller = (async () => {
      while (polling || sentAt.size) {
        const pending = [...sentAt.keys()];
        if (pending.length) {
          const { rows } = await service.sql.query<{ workflow_run_id: string; seen: Date }>(
            // By the runs index (environment first): without it, every poll scanned the whole table.
            "SELECT workflow_run_id, clock_timestamp() AS seen FROM rm_messages WHERE environment = 'development' AND workflow_run_id = ANY($1)",
            [pending],
          );
          const now = performance.now();
          for (const r of rows) {
            latencies.push(now - sentAt.get(r.workflow_run_id)!);
            sentAt.delete(r.workflow_run_id);
            seenAt.set(r.workflow_run_id, r.seen.getTime());
          }
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const client = new BoundedClient(service.url);
    await atRate(rate, seconds, async (i) => {
      const t0 = performance.now();
      const res = await client.post(
        '/v1/workflows/bench-inapp/trigger',
        { recipients: [users[i]], data: { n: i } },
        { authorization: `Bearer ${service.secretKey}` },
      );
      if (res.status !== 200) return;
      const { workflow_run_id } = res.body as { workflow_run_id: string };
      acceptMs.push(performance.now() - t0);
      sentAt.set(workflow_run_id, t0);
    });
    await client.close();
    await until(async () => sentAt.size === 0, 60_000, 50);
    polling = false;
    await poller;
    const scenario = `trigger -> message visible, per stage, ${rate} triggers/s for ${seconds} s`;
    return [
      ...(await stages(service, seenAt)).map((s) => ({ scenario, ...s })),
      {
        scenario,
        metric: 'accept (HTTP request -> 200, includes the log append)',
        value: `p50 ${round(percentile(acceptMs, 50))} / p99 ${round(percentile(acceptMs, 99))}`,
        unit: 'ms',
        note: `load generator clock; ${client.refused} refused (429/503); at most 64 connections`,
      },
      {
        scenario: `trigger -> message visible in the feed's read model, ${rate} triggers/s for ${seconds} s`,
        metric: 'p50',
        value: round(percentile(latencies, 50)),
        unit: 'ms',
      },
      {
        scenario: `trigger -> message visible in the feed's read model, ${rate} triggers/s for ${seconds} s`,
        metric: 'p99',
        value: round(percentile(latencies, 99)),
        unit: 'ms',
        note: `${latencies.length} messages; visibility polled every 5 ms`,
      },
    ];
  } finally {
    await service.stop();
  }
}

/**
 * Where the time between the trigger's append and the visible message goes, from the database's
 * own timestamps (es_events.created_at is the appending transaction's start): run start (the
 * trigger's append -> the run's RunEnqueued, the fan-out reactor), step execution (RunEnqueued ->
 * the message's first event, the run executor), message projection and feed visibility (the
 * message's event -> the row first seen by the poller in rm_messages, which the feed reads).
 */
async function stages(service: BenchService, seenAt: Map<string, number>): Promise<Omit<Figure, 'scenario'>[]> {
  const { rows } = await service.sql.query<{ wf: string; triggered: Date; enqueued: Date; message: Date }>(
    `SELECT c.wf, t.created_at AS triggered, c.enqueued, c.message
       FROM (SELECT metadata->>'correlation_id' AS wf,
                    min(created_at) FILTER (WHERE event_type = 'RunEnqueued') AS enqueued,
                    min(created_at) FILTER (WHERE stream_id LIKE 'message-%') AS message
               FROM es_events WHERE metadata->>'correlation_id' = ANY($1) GROUP BY 1) c
       JOIN es_events t ON t.stream_id = 'workflow_run-development-' || c.wf AND t.stream_revision = 0`,
    [[...seenAt.keys()]],
  );
  const gaps = { start: [] as number[], step: [] as number[], projection: [] as number[] };
  for (const r of rows) {
    if (!r.triggered || !r.enqueued || !r.message) continue;
    gaps.start.push(r.enqueued.getTime() - r.triggered.getTime());
    gaps.step.push(r.message.getTime() - r.enqueued.getTime());
    gaps.projection.push(seenAt.get(r.wf)! - r.message.getTime());
  }
  const figure = (metric: string, values: number[]) => ({
    metric,
    value: `p50 ${round(percentile(values, 50))} / p99 ${round(percentile(values, 99))}`,
    unit: 'ms',
    note: `${values.length} runs; database clock`,
  });
  return [
    figure('run start (trigger appended -> RunEnqueued)', gaps.start),
    figure('step execution (RunEnqueued -> message event)', gaps.step),
    figure('message projection + feed visibility (message event -> row seen)', gaps.projection),
  ];
}

/** One trigger to an object with `subscribers` subscribers: time until every message is visible. */
export async function fanout(subscribers: number): Promise<Figure[]> {
  const service = await startService('fanout');
  try {
    await defineWorkflow(service, 'bench-inapp', [inAppStep()]);
    const users = Array.from({ length: subscribers }, (_, i) => `f${i}`);
    const seeder = await Seeder.open(service);
    await seeder.users(users);
    await seeder.subscriptions('teams', 'everyone', users);
    await seeder.close();
    const base = await visibleCount(service);
    const database = new URL(service.databaseUrl).pathname.slice(1);
    const [cpu0, db0] = [await cpuMs(service.pid), await databaseCpuMs(service.sql, database)];
    const t0 = Date.now();
    const res = await service.call('POST', '/v1/workflows/bench-inapp/trigger', {
      recipients: [{ id: 'everyone', collection: 'teams' }],
      data: { n: 1 },
    });
    if (res.status !== 200) throw new Error(`trigger failed: ${res.status} ${JSON.stringify(res.body)}`);
    const timeoutMs = Math.max(300_000, subscribers * 5);
    const done = await untilCount(async () => (await visibleCount(service)) - base, subscribers, timeoutMs);
    const ms = (done ?? Date.now()) - t0;
    // What the fan-out cost the service, whatever else ran on the machine (ADR 0184).
    const cpu = ((await cpuMs(service.pid)) - cpu0) / 1000;
    // The service's pool stays open through the fan-out, so its backends' CPU is the database's share.
    const dbCpu = databaseCpuSince(db0, await databaseCpuMs(service.sql, database)) / 1000;
    // The run history yields to the deliveries (ADR 0286): when it showed every run completed.
    const historyDone = await untilCount(
      async () =>
        Number((await service.sql.query(`SELECT count(*) AS c FROM rm_workflow_recipient_runs WHERE status = 'completed'`)).rows[0].c),
      subscribers,
      timeoutMs,
    );
    const historyMs = (historyDone ?? Date.now()) - t0;
    // Log entries of the runs and their messages, per run (issue 19).
    const {
      rows: [logged],
    } = await service.sql.query(
      `SELECT count(*) FILTER (WHERE event_type = 'RunEnqueued') AS runs, count(*) AS entries
       FROM es_events WHERE stream_id LIKE 'run-%' OR stream_id LIKE 'message-%'`,
    );
    const perRun = Number(logged.entries) / Number(logged.runs);
    return [
      {
        scenario: `one trigger to an object with ${subscribers} subscribers`,
        metric: 'all messages visible after',
        value: round(ms / 1000, 2),
        unit: 's',
        note: done ? `${round(subscribers / (ms / 1000))} messages/s` : `did not finish in ${timeoutMs / 1000} s`,
      },
      {
        scenario: `one trigger to an object with ${subscribers} subscribers`,
        metric: 'service CPU (user + system) until all messages were visible',
        value: round(cpu, 2),
        unit: 's',
        note: `${round((cpu * 1000) / subscribers, 2)} ms per run`,
      },
      {
        scenario: `one trigger to an object with ${subscribers} subscribers`,
        metric: "PostgreSQL CPU (the service's backends) until all messages were visible",
        value: round(dbCpu, 2),
        unit: 's',
        note: `${round((dbCpu * 1000) / subscribers, 2)} ms per run`,
      },
      {
        scenario: `one trigger to an object with ${subscribers} subscribers`,
        metric: 'every run completed in the run history (workflow runs read model) after',
        value: round(historyMs / 1000, 2),
        unit: 's',
        note: historyDone
          ? 'the run history yields to deliveries for at most PROJECTION_BACKGROUND_MAX_DEFER_MS (30 s) at a stretch (ADR 0286)'
          : `did not finish in ${timeoutMs / 1000} s`,
      },
      {
        scenario: `one trigger to an object with ${subscribers} subscribers`,
        metric: 'log entries per run (run and message streams)',
        value: round(perRun, 2),
        unit: '',
        note: `${logged.entries} entries, ${logged.runs} runs`,
      },
    ];
  } finally {
    await service.stop();
  }
}

/**
 * Whether the batch scenario got what correct batching gives: windows are placed by when each
 * trigger was accepted, so triggers all accepted within one window make one message per
 * recipient, however far behind the runs reach the batch step.
 */
function expectedOk(messages: number, recipients: number, sendSeconds: number, windowSeconds: number): string {
  if (sendSeconds >= windowSeconds) return `not judged: sending took ${round(sendSeconds, 1)} s, longer than the window`;
  return messages === recipients ? 'PASS' : `FAIL: expected ${recipients}`;
}

/** `triggers` triggers spread over `recipients` recipients into a batch step: one message each. */
export async function batching(triggers: number, recipients: number, windowSeconds: number): Promise<Figure[]> {
  const service = await startService('batch');
  try {
    // The window must stay open while every trigger is sent, so that "one message per recipient"
    // is what correct batching gives; the figure is how long until every activity is in a message.
    await defineWorkflow(service, 'bench-batch', [
      { type: 'batch', ref: 'batch_1', settings: { batch_window: { unit: 'seconds', value: windowSeconds } } },
      inAppStep(),
    ]);
    const users = Array.from({ length: recipients }, (_, i) => `b${i}`);
    const seeder = await Seeder.open(service);
    await seeder.users(users);
    await seeder.close();
    const t0 = Date.now();
    // 32 clients, each sending its next trigger when the last was accepted: as fast as the service takes them.
    const sent = await closedLoop(triggers, 32, async (i) => {
      const res = await fetch(`${service.url}/v1/workflows/bench-batch/trigger`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ recipients: [users[i % recipients]], data: { n: i } }),
      });
      if (res.status !== 200) throw new Error(String(res.status));
      await res.arrayBuffer();
    });
    const sendSeconds = (Date.now() - t0) / 1000;
    const accepted = triggers - sent.errors;
    const totals = async () => {
      const { rows } = await service.sql.query<{ recipient_id: string; total_activities: number }>(
        "SELECT recipient_id, total_activities FROM rm_messages WHERE workflow_key = 'bench-batch'",
      );
      return { rows, activities: rows.reduce((sum, r) => sum + r.total_activities, 0) };
    };
    const done = await until(async () => ((await totals()).activities >= accepted ? Date.now() : undefined), 300_000, 200);
    await new Promise((r) => setTimeout(r, 2000)); // anything extra would show up now
    const { rows, activities } = await totals();
    const perRecipient = new Set(rows.map((r) => r.recipient_id)).size;
    const scenario = `${triggers} triggers for ${recipients} recipients into a ${windowSeconds} s batch window`;
    return [
      {
        scenario,
        metric: 'messages (exactly one per recipient per window expected)',
        value: rows.length,
        unit: 'messages',
        note: `${expectedOk(rows.length, recipients, sendSeconds, windowSeconds)}; ${perRecipient} recipients, ${activities} activities in total of ${accepted} triggers accepted (sent in ${round(sendSeconds, 1)} s)${sent.errors ? `; failed: ${sent.failures}` : ''}`,
      },
      {
        scenario,
        metric: 'every activity in a message',
        value: done ? round((done - t0) / 1000, 1) : 'not within 300',
        unit: 's after the first trigger',
        note: `includes the ${windowSeconds} s window`,
      },
    ];
  } finally {
    await service.stop();
  }
}

/**
 * Overload: triggers at `rate` (twice what the machine sustains) for `seconds`, through the
 * bounded client; the service sheds what it cannot take (429/503). Then one probe trigger every
 * 100 ms for `recoverySeconds`: the scenario passes when the load run finished and the probes'
 * accept latency is back under 2x its value before the load within the recovery time.
 */
export async function overload(rate: number, seconds: number, recoverySeconds: number): Promise<Figure[]> {
  const service = await startService('overload');
  try {
    await defineWorkflow(service, 'bench-inapp', [inAppStep()]);
    await service.call('PUT', '/v1/users/u1', { name: 'U1' });
    const auth = { authorization: `Bearer ${service.secretKey}` };
    const probe = new BoundedClient(service.url, 1);
    const probeFor = async (ms: number) => {
      const samples: { at: number; ms: number }[] = [];
      const end = performance.now() + ms;
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await probe.post('/v1/workflows/bench-inapp/trigger', { recipients: ['u1'], data: { probe: true } }, auth);
        if (res.status === 200) samples.push({ at: t0, ms: performance.now() - t0 });
        await new Promise((r) => setTimeout(r, 100));
      }
      return samples;
    };
    const before = percentile(
      (await probeFor(3000)).map((s) => s.ms),
      50,
    );
    const client = new BoundedClient(service.url);
    const sent = await atRate(rate, seconds, async (i) => {
      const res = await client.post('/v1/workflows/bench-inapp/trigger', { recipients: ['u1'], data: { n: i } }, auth);
      if (res.status !== 200 && res.status !== 429 && res.status !== 503) throw new Error(String(res.status));
    });
    await client.close();
    const stopped = performance.now();
    const after = await probeFor(recoverySeconds * 1000);
    await probe.close();
    // Recovered at the first probe from which every later probe is under 2x the pre-load median.
    const limit = Math.max(2 * before, before + 20);
    let recoveredAt: number | undefined;
    for (let i = after.length - 1; i >= 0 && after[i].ms <= limit; i--) recoveredAt = after[i].at;
    const scenario = `overload: ${rate} triggers/s for ${seconds} s (bounded client, 64 connections), then probes`;
    return [
      {
        scenario,
        metric: 'answered / refused / failed',
        value: `${sent.sent - sent.errors - client.refused} / ${client.refused} / ${sent.errors}`,
        unit: 'requests',
        note: `load finished in ${round(sent.elapsedMs / 1000, 1)} s${sent.errors ? `; ${sent.failures}` : ''}`,
      },
      {
        scenario,
        metric: 'accept latency recovered (probe p50 before the load, probes after)',
        value: recoveredAt === undefined ? `not within ${recoverySeconds}` : round((recoveredAt - stopped) / 1000, 1),
        unit: 's after the load stopped',
        note: `${recoveredAt === undefined ? 'FAIL' : 'PASS'}: before ${round(before)} ms; after: first ${round(after[0]?.ms ?? NaN)} ms, last ${round(after[after.length - 1]?.ms ?? NaN)} ms, max ${round(Math.max(...after.map((s) => s.ms)))} ms`,
      },
    ];
  } finally {
    await service.stop();
  }
}
