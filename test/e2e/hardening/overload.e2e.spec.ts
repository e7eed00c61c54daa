import { EXAMPLE_WORKFLOW_KEY } from '@notify/application';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { startTestApp, TestApp } from '../../support/test-app';

/** One request of the load generator and what came of it. */
interface Shot {
  recipient: string;
  status: number | 'no answer';
  ms: number;
  body?: { workflow_run_id?: string; code?: string; status?: number; type?: string; message?: string };
  retryAfter?: string | null;
}

/** Resolves once `check` holds, polled; never a guessed delay. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A trigger request with an inline recipient: where it goes, its headers and its body. */
function triggerRequest(t: TestApp, tag: string, n: number) {
  const recipient = `ov-${tag}-${n}`;
  return {
    recipient,
    url: `${t.url}/v1/workflows/${EXAMPLE_WORKFLOW_KEY}/trigger`,
    headers: { authorization: `Bearer ${t.env.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ recipients: [{ id: recipient, name: `Load ${n}` }], data: { message: 'load', load: tag } }),
  };
}

/**
 * Triggers with an inline recipient (a write before the trigger's own append, which the trigger
 * waits to see). A request that gets no answer within `giveUpMs` counts as 'no answer'.
 */
function trigger(t: TestApp, tag: string, n: number, giveUpMs: number): Promise<Shot> {
  const { recipient, url, headers, body } = triggerRequest(t, tag, n);
  const started = performance.now();
  return fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(giveUpMs) }).then(
    async (res): Promise<Shot> => ({
      recipient,
      status: res.status,
      ms: performance.now() - started,
      body: (await res.json()) as Shot['body'],
      retryAfter: res.headers.get('retry-after'),
    }),
    () => ({ recipient, status: 'no answer' as const, ms: performance.now() - started }),
  );
}

/**
 * A trigger whose body is sent only in part: the service admits it (admission comes before the
 * body is read) and it holds its place until `finish` sends the rest. `answer` settles with the
 * service's answer, whenever it comes (at once for a refusal).
 */
function heldTrigger(t: TestApp, tag: string, n: number): { finish(): void; answer: Promise<Shot> } {
  const { recipient, url, headers, body: text } = triggerRequest(t, tag, n);
  const body = Buffer.from(text);
  const started = performance.now();
  const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': body.length } });
  const answer = new Promise<Shot>((resolve) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          recipient,
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Shot['body'],
          retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
        }),
      );
    });
    req.on('error', () => resolve({ recipient, status: 'no answer', ms: performance.now() - started }));
  });
  req.flushHeaders();
  req.write(body.subarray(0, 10));
  return { finish: () => req.end(body.subarray(10)), answer };
}

/** A closed loop of `concurrency` clients, each sending its next request when it has an answer. */
async function closedLoop(send: (n: number) => Promise<Shot>, concurrency: number, durationMs: number): Promise<Shot[]> {
  const shots: Shot[] = [];
  const end = performance.now() + durationMs;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) shots.push(await send(n++));
    }),
  );
  return shots;
}

/**
 * An open loop at `rate` requests a second, whatever the answers, with at most `maxOutstanding`
 * requests unanswered at once (the generator's own bound: a send that would pass it is skipped
 * and counted, so the machine is never flooded).
 */
async function openLoop(
  send: (n: number) => Promise<Shot>,
  rate: number,
  durationMs: number,
  maxOutstanding: number,
): Promise<{ shots: Shot[]; skipped: number }> {
  const shots: Promise<Shot>[] = [];
  let outstanding = 0;
  let skipped = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const elapsed = performance.now() - start;
      const due = Math.floor((Math.min(elapsed, durationMs) * rate) / 1000);
      while (shots.length + skipped < due) {
        if (outstanding >= maxOutstanding) {
          skipped++;
          continue;
        }
        outstanding++;
        shots.push(send(shots.length).finally(() => outstanding--));
      }
      if (elapsed >= durationMs) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  return { shots: await Promise.all(shots), skipped };
}

/**
 * Load shedding (issue 15): offered three times what the service sustains, every request is
 * answered at once, with 200 or 503 `overloaded` + retry-after; refused requests wrote nothing;
 * afterwards the service answers normally. The bounds are small here (4 in flight, 4 queued),
 * so a modest load on a shared machine is far over them. Asserts outcomes, not timings: the
 * only time bound is a generous ceiling no answer may pass (a hung request is the failure).
 */
describe('overload: bounded in-flight work, refusals before any work', () => {
  const IN_FLIGHT = 4;
  const QUEUED = 4;
  /** No answer may take longer than this (the issue measured 26 s p50 and 30 s give-ups). */
  const CEILING_MS = 10_000;
  let t: TestApp;
  const admission = () => t.app.getHttpAdapter().getInstance().admission!;

  beforeAll(async () => {
    t = await startTestApp({
      env: { HTTP_MAX_IN_FLIGHT: String(IN_FLIGHT), HTTP_QUEUE_SIZE: String(QUEUED), HTTP_QUEUE_TIMEOUT_MS: '500' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 3x its sustained trigger rate at once with 200 or 503, refuses everything beyond its bounds, writes nothing for refusals, and recovers', async () => {
    const tag = randomUUID().slice(0, 8);
    const send = (n: number) => trigger(t, tag, n, CEILING_MS);

    // What the service sustains: as many clients as it works on at once, none ever queued.
    const calibration = await closedLoop((n) => send(100_000 + n), IN_FLIGHT, 1500);
    expect(new Set(calibration.map((s) => s.status))).toEqual(new Set([200]));
    const sustained = calibration.length / 1.5;

    // Memory is bounded by what the admission bounds let the process hold: sampled through the load.
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
    const { shots, skipped } = await openLoop(send, Math.ceil(sustained * 3), 3000, 64).finally(() => clearInterval(sampler));
    const statuses = new Map<string, number>();
    for (const s of shots) statuses.set(String(s.status), (statuses.get(String(s.status)) ?? 0) + 1);
    process.stdout.write(
      `overload: sustained ${sustained.toFixed(0)}/s; offered ${Math.ceil(sustained * 3)}/s for 3 s: ${shots.length} sent (${skipped} skipped by the generator's bound), ` +
        `${JSON.stringify(Object.fromEntries(statuses))}; slowest answer ${Math.max(...shots.map((s) => s.ms)).toFixed(0)} ms; ` +
        `rss ${(rssBefore / 2 ** 20).toFixed(0)} -> peak ${(rssPeak / 2 ** 20).toFixed(0)} MiB; admission ${JSON.stringify(admission().stats())}\n`,
    );

    // Every request answered, within the ceiling, with 200 or a refusal. How many are refused
    // depends on the machine's speed at that moment (the calibration may have run slower).
    expect(shots.filter((s) => s.status === 'no answer')).toEqual([]);
    expect(shots.filter((s) => s.ms > CEILING_MS)).toEqual([]);
    expect([...statuses.keys()].filter((s) => s !== '200' && s !== '503')).toEqual([]);
    expect(statuses.get('200')).toBeGreaterThan(0);

    // Beyond the bounds, whatever the machine's speed: IN_FLIGHT requests hold every place (their
    // bodies half sent), so every further request is refused, at once while the queue is full and
    // after its queue time otherwise; none of them can be admitted while the places are held.
    await until(() => admission().stats().inFlight === 0, "the open loop's places to be given back");
    const held = Array.from({ length: IN_FLIGHT }, (_, i) => heldTrigger(t, tag, 300_000 + i));
    let beyond: Shot[];
    try {
      await until(() => admission().stats().inFlight === IN_FLIGHT, 'the held requests to take every place');
      beyond = await Promise.all(Array.from({ length: QUEUED + 4 }, (_, i) => send(400_000 + i)));
    } finally {
      // Also when waiting failed: a request left half sent would keep the app from closing.
      for (const h of held) h.finish();
    }
    const heldShots = await Promise.all(held.map((h) => h.answer));
    expect(beyond.map((s) => s.status)).toEqual(beyond.map(() => 503));
    expect(heldShots.map((s) => s.status)).toEqual(held.map(() => 200));

    // Never more held than the bounds allow, and the process (service and load generator together)
    // grew by far less than the 350 MB the unbounded service grew by under such load (issue 15).
    expect(admission().stats().peakInFlight).toBeLessThanOrEqual(IN_FLIGHT);
    expect(admission().stats().peakQueued).toBeLessThanOrEqual(QUEUED);
    expect(rssPeak - rssBefore).toBeLessThan(150 * 2 ** 20);
    for (const refused of [...shots, ...beyond].filter((s) => s.status === 503)) {
      expect(refused.body).toEqual({ code: 'overloaded', message: expect.any(String), status: 503, type: 'api_error' });
      expect(refused.retryAfter).toBe('1');
    }

    // Written exactly for the accepted requests: their triggers and inline recipients, no others.
    const all = [...calibration, ...shots, ...beyond, ...heldShots];
    const accepted = all.filter((s) => s.status === 200);
    const triggered = await t.sql<{ id: string; recipient: string }>(
      // By the recipient's id: a trigger's data naming one user is sealed with that user's key (ADR 0199).
      `SELECT data->>'workflow_run_id' AS id, data->'recipients'->0->>'id' AS recipient FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'recipients'->0->>'id' LIKE $1`,
      [`ov-${tag}-%`],
    );
    expect(triggered.map((r) => r.id).sort()).toEqual(accepted.map((s) => s.body!.workflow_run_id).sort());
    expect(triggered.map((r) => r.recipient).sort()).toEqual(accepted.map((s) => s.recipient).sort());
    const identified = await t.sql<{ stream_id: string }>(`SELECT stream_id FROM es_streams WHERE stream_id LIKE $1`, [
      `user-development-ov-${tag}-%`,
    ]);
    expect(identified.map((r) => r.stream_id).sort()).toEqual(accepted.map((s) => `user-development-${s.recipient}`).sort());

    // The worker runs exactly the accepted triggers.
    const runs = async () =>
      Number(
        (
          await t.sql<{ c: string }>(
            `SELECT count(*) AS c FROM rm_workflow_recipient_runs WHERE environment = 'development' AND recipient_id LIKE $1`,
            [`ov-${tag}-%`],
          )
        )[0].c,
      );
    await until(async () => (await runs()) >= accepted.length, 'a run per accepted trigger', 120_000);
    expect(await runs()).toBe(accepted.length);

    // Afterwards: nothing held, and the service answers as before.
    await until(() => admission().stats().inFlight === 0, 'every place to be given back');
    const after = await closedLoop((n) => send(200_000 + n), 2, 500);
    expect(new Set(after.map((s) => s.status))).toEqual(new Set([200]));
    expect((await t.http('GET', `/v1/users/${after[0].recipient}`)).status).toBe(200);
  });
});
