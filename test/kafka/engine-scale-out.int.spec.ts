import KnockMgmt from '@knocklabs/mgmt';
import Knock from '@knocklabs/node';
import { schemaVersionOf } from '@notify/contracts';
import { workflowRunStream } from '@notify/domain';
import { PostgresEventStore } from '@notify/eventstore';
import { startHttpPeer, type Peer } from '@notify/testing/peers';
import {
  createTestDatabase,
  deleteTestTopics,
  kafkaTestSettings,
  LOCAL_PEER_ADDRESSES,
  testEnv,
  TestDatabase,
  describeWith,
} from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { STEP_COMPLETIONS } from '../support/engine';
import { ServiceProcess, startProcess } from '../support/processes';

const describeScaleOut = describeWith('kafka', 'postgres');

// Enough runs that a worker can be killed with most of them still to do; the cost of the test
// grows with every recipient (three messages' worth of events each), so no more than that.
const RECIPIENTS = 2_000;
// The waits below bound a hang, not speed (throughput is measured by `npm run bench`): on a
// 2-core CI runner shared with two other jest workers this test took 370-430 s (issue 14).
const PARTITIONS = 6;
const secretKey = 'sk_scale_out_0123456789abcdef';
const serviceToken = 'svc_scale_out_0123456789abcdef0123';

async function until<T>(what: string, probe: () => Promise<T | false | undefined>, timeoutMs: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The partitions a worker was last assigned, from its log. */
function assigned(worker: ServiceProcess): number[] | undefined {
  const joins = worker.logs.filter((l) => l.msg === 'run-work partitions assigned');
  return joins.length ? (joins[joins.length - 1].partitions as number[]) : undefined;
}

const executedBy = (worker: ServiceProcess) =>
  worker.logs.filter((l) => l.msg === 'run-work executed').reduce((n, l) => n + Number(l.runs), 0);

/**
 * Two worker processes (dist/, `npm run build` first) share one trigger of 2,000 recipients
 * through the run-work consumer group on the real broker. One is killed (SIGKILL) mid-way; the
 * other takes over its partitions and finishes. Every recipient gets exactly one in-app and one
 * webhook message, and the webhook receiver is never called twice for a message.
 */
describeScaleOut(
  `two workers sharing runs through Kafka${testEnv.kafkaBrokers && testEnv.postgresUrl ? '' : ' (skipped: set KAFKA_BROKERS and DATABASE_URL)'}`,
  () => {
    const settings = testEnv.kafkaBrokers ? kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: String(PARTITIONS) }) : undefined!;
    let db: TestDatabase;
    let store: PostgresEventStore | undefined;
    const processes: ServiceProcess[] = [];
    let receiver: Peer;

    beforeAll(async () => {
      db = await createTestDatabase('postgres', { migrate: false });
      receiver = await startHttpPeer(() => ({ status: 200, json: { received: true } }));
    });
    afterAll(async () => {
      // SCALE_OUT_LOGS=<dir> keeps each process's log lines there (for looking into a failure).
      if (process.env.SCALE_OUT_LOGS)
        processes.forEach((p, i) =>
          writeFileSync(
            `${process.env.SCALE_OUT_LOGS}/process-${i}.log`,
            p.logs.map((l) => JSON.stringify(l)).join('\n') + `\n${p.stderr()}`,
          ),
        );
      await Promise.all(processes.map((p) => p.stop('SIGKILL')));
      await store?.close();
      await receiver?.close();
      await db?.close();
      if (settings) await deleteTestTopics(settings);
    });

    const sql = async <T>(query: string, params: unknown[] = []): Promise<T[]> => (await db.database.pool.query(query, params)).rows as T[];

    it('produces exactly one message per recipient, and the survivor finishes the partitions of the killed worker', async () => {
      const env = {
        DATABASE_URL: db.url,
        BOOTSTRAP_SECRET_KEY: secretKey,
        BOOTSTRAP_SERVICE_TOKEN: serviceToken,
        LOG_LEVEL: 'info',
        PORT: '0',
        HOST: '127.0.0.1',
        KAFKA_BROKERS: testEnv.kafkaBrokers!,
        KAFKA_TOPIC_PREFIX: settings.topics.events.replace(/events\.v1$/, ''),
        KAFKA_TOPIC_PARTITIONS: String(PARTITIONS),
        // The recipients are identified in bulk calls in a row.
        RATE_LIMIT_ENABLED: 'false',
        ENGINE_KAFKA_SESSION_TIMEOUT_MS: '8000',
        KAFKAJS_NO_PARTITIONER_WARNING: '1',
        // The webhook receiver is a local peer.
        OUTBOUND_ALLOWED_ADDRESSES: LOCAL_PEER_ADDRESSES,
      };
      const first = startProcess('dist/apps/worker/src/main.js', env);
      processes.push(first);
      await first.waitForLog((l) => l.msg === 'projections running', 60_000);
      const second = startProcess('dist/apps/worker/src/main.js', env);
      const api = startProcess('dist/apps/api/src/main.js', env);
      processes.push(second, api);
      const url = String((await api.waitForLog((l) => l.msg === 'listening', 60_000)).url);

      // Both workers are members of the group, with disjoint halves of the partitions.
      await until(
        'both workers to share the partitions',
        async () => {
          const a = assigned(first);
          const b = assigned(second);
          return a && b && a.length > 0 && b.length > 0 && new Set([...a, ...b]).size === PARTITIONS && a.length + b.length === PARTITIONS;
        },
        60_000,
      );

      // The bootstrap keys become valid once a worker projected them.
      await until(
        'the bootstrap key',
        async () => (await fetch(`${url}/v1/users/nobody`, { headers: { authorization: `Bearer ${secretKey}` } })).status === 404,
        60_000,
      );
      // A webhook channel beside the in-app one: every call the receiver gets is a send.
      const channel = await fetch(`${url}/v1/channels/hooks`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${serviceToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          channel: {
            name: 'hooks',
            type: 'http',
            provider: 'webhook',
            environment_settings: { development: { provider_settings: {}, channel_settings: {}, is_sandbox: false } },
          },
        }),
      });
      expect(channel.status).toBe(200);
      const mgmt = new KnockMgmt({ serviceToken, baseURL: url, maxRetries: 0, timeout: 20_000 });
      const workflowSteps = [
        { type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hello {{ recipient.id }}' } },
        {
          type: 'channel',
          ref: 'hook',
          channel_key: 'hooks',
          template: {
            url: `${receiver.url}/hook/{{ recipient.id }}`,
            method: 'post',
            headers: [{ key: 'Content-Type', value: 'application/json' }],
            body: '{"user": "{{ recipient.id }}"}',
          },
        },
      ];
      const { workflow } = await mgmt.workflows.upsert('scale-out', {
        environment: 'development',
        workflow: { name: 'scale-out', steps: workflowSteps } as never,
      });
      expect(workflow.valid).toBe(true);
      await mgmt.workflows.activate('scale-out', { environment: 'development', status: true });

      // The API takes at most 1,000 recipients per trigger (as Knock does). A trigger through it
      // records the workflow snapshot; one WorkflowTriggered of all the recipients with that same
      // snapshot is then appended to the log as the trigger use case would append it.
      const knock = new Knock({ apiKey: secretKey, baseURL: url, maxRetries: 0, timeout: 20_000 });
      const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ type: 'user' as const, id: `r-${String(i).padStart(4, '0')}` }));
      // The recipients exist (bulk identify, 1,000 per call), as they would in a real deployment.
      for (let i = 0; i < RECIPIENTS; i += 1000)
        await knock.users.bulk.identify({ users: recipients.slice(i, i + 1000).map((r) => ({ id: r.id, name: `Recipient ${r.id}` })) });
      await until(
        'the recipients to be identified',
        async () =>
          Number(
            (await sql<{ n: string }>(`SELECT count(*) AS n FROM rm_users WHERE environment = 'development' AND id LIKE 'r-%'`))[0].n,
          ) === RECIPIENTS,
        300_000,
        500,
      );
      const probe = await knock.workflows.trigger('scale-out', { recipients: [{ id: 'probe', name: 'Probe' }] });
      const [recorded] = await until(
        'the probe trigger',
        async () => {
          const rows = await sql<{ data: Record<string, unknown>; metadata: Record<string, unknown> }>(
            `SELECT data, metadata FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->>'workflow_run_id' = $1`,
            [probe.workflow_run_id],
          );
          return rows.length === 1 && rows;
        },
        10_000,
      );
      store = await PostgresEventStore.create({ pool: db.database.pool, ensureSchema: false, listenConnectionString: db.url });
      const workflowRunId = randomUUID();
      // The probe's runs were appended with it (ADR 0255); this one's are the fan-out's to append.
      const { runs_enqueued: _appendedWithIt, ...probeData } = recorded.data;
      await store.append(
        workflowRunStream('development', workflowRunId),
        [
          {
            id: randomUUID(),
            type: 'WorkflowTriggered',
            data: { ...probeData, workflow_run_id: workflowRunId, recipients, triggered_at: new Date().toISOString() },
            metadata: { ...recorded.metadata, environment: 'development', schema_version: schemaVersionOf('WorkflowTriggered') },
          },
        ],
        { expectedRevision: 'no_stream' },
      );

      const triggeredAt = Date.now();
      // In-app messages: the measure of progress (one per recipient, created with its run's step).
      const created = () =>
        sql<{ n: string }>(
          `SELECT count(*) AS n FROM es_events WHERE event_type = 'MessageCreated' AND data->>'workflow_run_id' = $1 AND data->>'step_ref' = 'feed'`,
          [workflowRunId],
        ).then((r) => Number(r[0].n));
      // Kill the first worker mid-way: both have executed runs, much is left.
      const atKill = await until(
        'both workers to be executing',
        async () => {
          const n = await created();
          return executedBy(first) > 0 && executedBy(second) > 0 && n >= RECIPIENTS * 0.25 && n;
        },
        120_000,
        50,
      );
      expect(atKill).toBeLessThan(RECIPIENTS * 0.8);
      const firstExecuted = executedBy(first);
      const secondBeforeKill = executedBy(second);
      const elected = (worker: ServiceProcess) =>
        worker.logs.filter((l) => l.msg === 'run-work dispatcher started (this worker owns partition 0)');
      /** Runs the singletons now: its last start was not followed by a stop. */
      const isElected = (worker: ServiceProcess) =>
        worker.logs.filter((l) => String(l.msg).startsWith('run-work dispatcher st')).pop()?.msg ===
        'run-work dispatcher started (this worker owns partition 0)';
      // One worker (the owner of partition 0) runs the dispatcher and the relay; the other neither.
      // (Waited for: in a rebalance the new owner may start before the old one has logged its stop.)
      await until('exactly one worker to run the singletons', async () => isElected(first) !== isElected(second), 180_000);
      expect([isElected(first), isElected(second)].sort()).toEqual([false, true]);
      expect(isElected(first) ? assigned(first) : assigned(second)).toContain(0);
      const singletons = [...elected(first), ...elected(second)][0].reactors as string[];
      expect(singletons).toEqual([`engine-run-work:${settings.topics.runWork}`, `kafka-relay:${settings.topics.events}`]);
      const secondWasElected = isElected(second);
      await first.stop('SIGKILL');

      // The survivor is given every partition once the group notices, and finishes.
      await until('the survivor to own every partition', async () => assigned(second)?.length === PARTITIONS, 60_000);
      await until('an in-app message for every recipient', async () => (await created()) >= RECIPIENTS, 300_000, 500);
      const allCreatedSeconds = (Date.now() - triggeredAt) / 1000;
      const runsDone = await until(
        'every run to complete',
        async () => {
          const [row] = await sql<{ n: string }>(
            `SELECT count(*) AS n FROM es_events e JOIN es_events s ON s.stream_id = e.stream_id AND s.event_type = 'RunEnqueued' AND s.data->>'workflow_run_id' = $1 WHERE e.event_type = 'RunCompleted'`,
            [workflowRunId],
          );
          return Number(row.n) === RECIPIENTS && Number(row.n);
        },
        180_000,
        500,
      );
      expect(runsDone).toBe(RECIPIENTS);

      // Exactly one message per recipient and step, created once.
      const perRecipient = await sql<{ recipient: string; step: string; n: string }>(
        `SELECT data->'recipient'->>'id' AS recipient, data->>'step_ref' AS step, count(*) AS n FROM es_events WHERE event_type = 'MessageCreated' AND data->>'workflow_run_id' = $1 GROUP BY 1, 2`,
        [workflowRunId],
      );
      expect(perRecipient).toHaveLength(2 * RECIPIENTS);
      expect(perRecipient.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(new Set(perRecipient.filter((r) => r.step === 'hook').map((r) => r.recipient))).toEqual(new Set(recipients.map((r) => r.id)));
      expect(new Set(perRecipient.filter((r) => r.step === 'feed').map((r) => r.recipient))).toEqual(new Set(recipients.map((r) => r.id)));

      // Every webhook message ends; none was sent twice. A call the killed worker had in flight
      // ends undelivered (delivery_interrupted) by its check timer: the webhook takes no
      // idempotency key, so it is not called again.
      const outcomes = await until(
        'every webhook message to end',
        async () => {
          const rows = await sql<{ id: string; outcome: string | null; reason: string | null }>(
            `SELECT c.data->>'message_id' AS id, f.event_type AS outcome, f.data->>'reason' AS reason
         FROM es_events c LEFT JOIN es_events f ON f.stream_id = c.stream_id AND f.event_type IN ('MessageDelivered', 'MessageSent', 'MessageUndelivered', 'MessageBounced', 'MessageNotSent')
         WHERE c.event_type = 'MessageCreated' AND c.data->>'workflow_run_id' = $1 AND c.data->>'step_ref' = 'hook'`,
            [workflowRunId],
          );
          return rows.length === RECIPIENTS && rows.every((r) => r.outcome) && rows;
        },
        240_000,
        1000,
      );
      const calls = new Map<string, number>();
      for (const request of receiver.requests) {
        const id = request.headers['x-notify-message-id'];
        if (request.url.startsWith('/hook/r-')) calls.set(id, (calls.get(id) ?? 0) + 1);
      }
      expect([...calls].filter(([, n]) => n > 1)).toEqual([]);
      const delivered = outcomes.filter((o) => o.outcome === 'MessageDelivered');
      const interrupted = outcomes.filter((o) => o.outcome !== 'MessageDelivered');
      expect(interrupted.filter((o) => o.outcome !== 'MessageUndelivered' || !o.reason?.startsWith('delivery_interrupted'))).toEqual([]);
      expect(delivered.every((o) => calls.get(o.id) === 1)).toBe(true);
      expect(calls.size).toBeLessThanOrEqual(RECIPIENTS);
      expect(calls.size).toBeGreaterThanOrEqual(delivered.length);

      // Every run ran its two channel steps once.
      const [steps] = await sql<{ n: string }>(
        `SELECT count(*) AS n FROM ${STEP_COMPLETIONS} e JOIN es_events s ON s.stream_id = e.stream_id AND s.event_type = 'RunEnqueued' AND s.data->>'workflow_run_id' = $1`,
        [workflowRunId],
      );
      expect(Number(steps.n)).toBe(2 * RECIPIENTS);

      // Both workers did part of the work, and the survivor did the rest after the kill.
      expect(firstExecuted).toBeGreaterThan(0);
      expect(secondBeforeKill).toBeGreaterThan(0);
      expect(executedBy(second) - secondBeforeKill).toBeGreaterThan(0);
      // The dispatcher and the relay run where partition 0 is: on the survivor once it has every partition.
      await until('the survivor to run the singletons', async () => isElected(second), 60_000);
      if (!secondWasElected) expect(elected(second).pop()!.reactors).toEqual(singletons);
      // The relay writes its checkpoint at most every 500 ms (ADR 0281): wait for the row to count.
      const relayed = await until(
        'the relay to have published',
        async () => {
          const [row] = await sql<{ n: string }>('SELECT events_handled AS n FROM reactor_checkpoints WHERE name = $1', [
            `kafka-relay:${settings.topics.events}`,
          ]);
          return Number(row?.n ?? 0) > 0 && Number(row.n);
        },
        60_000,
      );
      expect(relayed).toBeGreaterThan(0);
      if (process.env.SCALE_OUT_LOGS) {
        const figures = {
          recipients: RECIPIENTS,
          webhook_calls: calls.size,
          webhooks_delivered: delivered.length,
          webhooks_interrupted: interrupted.length,
          created_at_kill: atKill,
          executed_by_killed: firstExecuted,
          executed_by_survivor: executedBy(second),
          seconds_to_all_runs: allCreatedSeconds,
          seconds_to_all_delivered: (Date.now() - triggeredAt) / 1000,
        };
        writeFileSync(`${process.env.SCALE_OUT_LOGS}/figures.json`, JSON.stringify(figures, null, 2));
      }

      // A clean stop exits 0; otherwise the worker's last warnings and errors say why.
      const stopped = async (p: ServiceProcess) => {
        const code = await p.stop();
        const said = p.logs.filter((l) => Number(l.level) >= 40 || ['warn', 'error', 'fatal'].includes(String(l.level))).slice(-15);
        return { code, said: code === 0 ? [] : said };
      };
      expect(await stopped(api)).toEqual({ code: 0, said: [] });
      expect(await stopped(second)).toEqual({ code: 0, said: [] });
    }, 900_000);
  },
);
