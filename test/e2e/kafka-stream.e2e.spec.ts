import { ReactorRuntime } from '@notify/projection-runtime';
import { deleteTestTopics, kafkaTestSettings, readTopicToEnd, testEnv, describeWith } from '@notify/testing';
import { startTestApp, TestApp } from '../support/test-app';
import { activeWorkflow, feed } from '../support/engine';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const describeKafka = describeWith('kafka');

describeKafka(`the service with Kafka configured${testEnv.kafkaBrokers ? '' : ' (skipped: set KAFKA_BROKERS)'}`, () => {
  const settings = testEnv.kafkaBrokers ? kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: '2' }) : undefined;
  let t: TestApp;

  beforeAll(async () => {
    const prefix = settings!.topics.events.replace(/events\.v1$/, '');
    t = await startTestApp({ env: { KAFKA_BROKERS: testEnv.kafkaBrokers!, KAFKA_TOPIC_PREFIX: prefix, KAFKA_TOPIC_PARTITIONS: '2' } });
  });
  afterAll(async () => {
    await t?.close();
    if (settings) await deleteTestTopics(settings);
  });

  it('streams what a client writes, and reports the relay in /readyz and /metrics', async () => {
    await t.knock().users.update('kafka-user', { name: 'Streamed' });
    const relay = await eventually('the relay to publish everything', async () => {
      const ready = await t.http('GET', '/readyz', { key: null });
      return ready.body.kafka_relay?.lag_events === 0 && ready.body.kafka_relay.events_published > 0 && ready.body;
    });
    expect(relay.status).toBe('ready');
    expect(relay.backends.kafka).toEqual({ status: 'up' });
    expect(relay.kafka_relay).toMatchObject({ name: `kafka-relay:${settings!.topics.events}`, lag_seconds: 0 });

    const records = await readTopicToEnd(settings!, settings!.topics.events);
    const identified = records.find((r) => r.value.type === 'UserIdentified' && r.value.data.user_id === 'kafka-user');
    expect(identified).toBeDefined();
    expect(identified!.key).toBe(identified!.value.stream_id);
    expect(identified!.key).toContain('kafka-user');
    expect(identified!.headers).toMatchObject({ 'event-type': 'UserIdentified', environment: 'development', 'schema-version': '1' });
    // As the log holds it: the user's properties sealed with the user's key (ADR 0182).
    expect(identified!.value).toMatchObject({
      environment: 'development',
      metadata: { environment: 'development' },
      data: { properties: { $sealed: 'aes-256-gcm/v1', subject: 'development/user/kafka-user' } },
    });
    expect(JSON.stringify(identified!.value)).not.toContain('Streamed');
    // The bootstrap (environment, keys) happened before; the relay started from the beginning of the log.
    expect(records.some((r) => r.value.type === 'EnvironmentCreated')).toBe(true);

    const metrics = await t.http('GET', '/metrics', { key: null });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.body).toContain(`notify_kafka_relay_lag_events{relay="kafka-relay:${settings!.topics.events}"} 0\n`);
    expect(metrics.body).toContain('# TYPE notify_kafka_relay_lag_seconds gauge');
    expect(metrics.body).toMatch(/notify_kafka_relay_events_published_total\{relay="[^"]+"\} [1-9]\d*\n/);
    expect(metrics.body).toContain('notify_kafka_up 1\n');
    expect(metrics.body).toMatch(
      new RegExp(`notify_kafka_records_published_total\\{topic="${settings!.topics.events.replace(/\./g, '\\.')}"\\} [1-9]\\d*\n`),
    );
  });

  it('streams schedules like other domain events: created, and each occurrence decided', async () => {
    await activeWorkflow(t, 'kafka-digest', { steps: [feed('feed')] });
    const knock = t.knock();
    await knock.users.update('kafka-scheduled', { name: 'Scheduled' });
    const [schedule] = await knock.schedules.create({
      workflow: 'kafka-digest',
      recipients: ['kafka-scheduled'],
      scheduled_at: new Date(Date.now() + 500).toISOString(),
    });
    const stream = `schedule-development-${schedule.id}`;
    const records = await eventually('the schedule events on Kafka', async () => {
      const all = await readTopicToEnd(settings!, settings!.topics.events);
      const mine = all.filter((r) => r.key === stream);
      return mine.some((r) => r.value.type === 'OccurrenceFired') && mine;
    });
    expect(records.map((r) => r.value.type)).toEqual(['ScheduleCreated', 'OccurrenceFired']);
    expect(records[0].headers).toMatchObject({ 'event-type': 'ScheduleCreated', 'schema-version': '1', environment: 'development' });
    expect(records[1].value.data).toMatchObject({ schedule_id: schedule.id, status: 'triggered' });
  });

  it('replays a range of the log to the stream topics as the relay published it, marked replayed (HTTP and CLI)', async () => {
    const knock = t.knock();
    for (const name of ['One', 'Two', 'Three']) await knock.users.update('kafka-replayed', { name });
    const stream = 'user-development-kafka-replayed';
    const logged = (await t.http('GET', `/v1/events/streams/${stream}`, { key: t.serviceToken })).body.entries;
    expect(logged).toHaveLength(3);
    const originals = await eventually('the relay to publish the user', async () => {
      const mine = (await readTopicToEnd(settings!, settings!.topics.events)).filter((r) => r.key === stream);
      return mine.length === 3 && mine;
    });

    // Over HTTP, one event a call: the answer says where to go on.
    const first = await t.http('POST', '/v1/events/replay_to_kafka', {
      key: t.serviceToken,
      body: { from: logged[0].position, to: logged[1].position, limit: 1 },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ events: 1, last_position: logged[0].position, replay_id: expect.any(String) });
    expect(first.body.next_from > logged[0].position && first.body.next_from <= logged[1].position).toBe(true);

    // The CLI goes through the whole range: the second and third events, and whatever else the
    // log holds between them (the service appends beside the test: the run of the schedule of the
    // test before, say). Once the relay has published the third event nothing can land in the
    // range any more (a reader sees an event only after every older transaction has ended).
    const between = await t.http('GET', `/v1/events?after=${encodeURIComponent(logged[0].position)}&limit=100`, { key: t.serviceToken });
    expect(between.status).toBe(200);
    const inRange = (between.body.entries as { position: string; stream: string }[]).filter(
      (e) => e.position >= logged[1].position && e.position <= logged[2].position,
    );
    expect(inRange.filter((e) => e.stream === stream)).toHaveLength(2);
    const cli = path.resolve(__dirname, '../../dist/apps/cli/src/main.js');
    const env = { PATH: process.env.PATH, NOTIFY_URL: t.url, NOTIFY_SERVICE_TOKEN: t.serviceToken, LOG_LEVEL: 'error' };
    const { stdout } = await run(
      process.execPath,
      [cli, 'events', 'replay-to-kafka', '--from', logged[1].position, '--to', logged[2].position],
      {
        env,
      },
    );
    expect(stdout).toContain(`replayed ${inRange.length} events`);

    const replayed = await eventually('the replayed records', async () => {
      const mine = (await readTopicToEnd(settings!, settings!.topics.events)).filter((r) => r.key === stream && r.headers.replayed);
      return mine.length === 3 && mine;
    });
    // Same key, value and headers as the relay's records, plus the replay marks.
    for (const [i, record] of replayed.entries()) {
      const { replayed: mark, 'replay-id': replayId, ...headers } = record.headers;
      expect(mark).toBe('true');
      expect(replayId).toEqual(expect.any(String));
      expect({ key: record.key, value: record.value, headers }).toEqual({
        key: originals[i].key,
        value: originals[i].value,
        headers: originals[i].headers,
      });
    }
    expect(replayed[0].headers['replay-id']).toBe(first.body.replay_id);
    expect(replayed[1].headers['replay-id']).not.toBe(first.body.replay_id);

    const bad = await t.http('POST', '/v1/events/replay_to_kafka', {
      key: t.serviceToken,
      body: { from: logged[2].position, to: logged[0].position },
    });
    expect(bad.status).toBe(422);

    // Each call is itself an audited event, with who asked; the refused one recorded nothing.
    const audits = await t.sql<{ data: { replay_id: string; events: number; from: string; to: string }; actor: string }>(
      `SELECT data, metadata->>'actor' AS actor FROM es_events WHERE event_type = 'LogReplayedToKafka' ORDER BY global_position`,
    );
    expect(audits.map((a) => a.data.replay_id)).toEqual([first.body.replay_id, replayed[1].headers['replay-id']]);
    expect(audits[0].data).toMatchObject({ events: 1, from: logged[0].position, to: logged[1].position });
    expect(audits.every((a) => a.actor.startsWith('service:'))).toBe(true);
  });

  it('replays by a range of global positions (HTTP) and by a time range (CLI), only the events in it, audited', async () => {
    const knock = t.knock();
    for (const name of ['A', 'B', 'C', 'D']) await knock.users.update('kafka-ranged', { name });
    const stream = 'user-development-kafka-ranged';
    const logged = (await t.http('GET', `/v1/events/streams/${stream}`, { key: t.serviceToken })).body.entries;
    expect(logged).toHaveLength(4);
    const count = async (where: string, params: unknown[]) =>
      Number((await t.sql<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE ${where}`, params))[0].n);

    const byGlobal = await t.http('POST', '/v1/events/replay_to_kafka', {
      key: t.serviceToken,
      body: { from_global_position: logged[1].global_position, to_global_position: logged[2].global_position },
    });
    expect(byGlobal.status).toBe(200);
    expect(byGlobal.body).toMatchObject({
      events: await count('global_position BETWEEN $1 AND $2', [logged[1].global_position, logged[2].global_position]),
      next_from: null,
    });

    // The CLI by time: from the third event's time to the fourth's, both included.
    const cli = path.resolve(__dirname, '../../dist/apps/cli/src/main.js');
    const env = { PATH: process.env.PATH, NOTIFY_URL: t.url, NOTIFY_SERVICE_TOKEN: t.serviceToken, LOG_LEVEL: 'error' };
    const { stdout } = await run(
      process.execPath,
      [cli, 'events', 'replay-to-kafka', '--since', logged[2].recorded_at, '--until', logged[3].recorded_at, '--limit', '1', '--json'],
      { env },
    );
    const calls = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const timeIds = new Set(calls.map((c: { replay_id: string }) => c.replay_id));

    const replayed = await eventually('the replayed records', async () => {
      const mine = (await readTopicToEnd(settings!, settings!.topics.events)).filter((r) => r.key === stream && r.headers.replayed);
      const global = mine.filter((r) => r.headers['replay-id'] === byGlobal.body.replay_id);
      const timed = mine.filter((r) => timeIds.has(r.headers['replay-id']));
      return global.length === 2 && timed.length === 2 && { global, timed };
    });
    // Only the events in the range: the user's second and third by global position, third and fourth by time.
    expect(replayed.global.map((r) => r.value.id)).toEqual([logged[1].id, logged[2].id]);
    expect(replayed.timed.map((r) => r.value.id)).toEqual([logged[2].id, logged[3].id]);

    const audits = await t.sql<{ data: Record<string, unknown> }>(
      `SELECT data FROM es_events WHERE event_type = 'LogReplayedToKafka' AND data->>'replay_id' = $1`,
      [byGlobal.body.replay_id],
    );
    expect(audits[0].data).toMatchObject({
      from_global_position: logged[1].global_position,
      to_global_position: logged[2].global_position,
      from: logged[1].position,
      to: logged[2].position,
    });

    const half = await t.http('POST', '/v1/events/replay_to_kafka', { key: t.serviceToken, body: { since: logged[0].recorded_at } });
    expect(half.status).toBe(422);
    expect(half.body.errors).toEqual([expect.objectContaining({ field: 'until' })]);
  });
});

describe('the service without Kafka (embedded default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs no relay and reports Kafka as disabled', async () => {
    expect(
      t.app
        .get(ReactorRuntime)
        .reactors.map((r) => r.name)
        .filter((n) => n.startsWith('kafka-relay')),
    ).toEqual([]);
    const ready = await t.http('GET', '/readyz', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body.backends.kafka).toEqual({ status: 'disabled' });
    expect(ready.body).not.toHaveProperty('kafka_relay');
    const metrics = await t.http('GET', '/metrics', { key: null });
    expect(metrics.body).toContain('notify_projection_lag_events ');
    expect(metrics.body).not.toMatch(/^notify_kafka_(up|relay)/m);
    const head = (await t.http('GET', '/v1/events/head', { key: t.serviceToken })).body.position;
    const replay = await t.http('POST', '/v1/events/replay_to_kafka', { key: t.serviceToken, body: { from: head, to: head } });
    expect([replay.status, replay.body.code]).toEqual([400, 'kafka_not_configured']);
  });
});

describe('the service with an unreachable broker', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { KAFKA_BROKERS: '127.0.0.1:1', KAFKA_CONNECTION_TIMEOUT_MS: '300', KAFKA_TOPIC_PREFIX: 'unreachable.' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stays ready (writes go to the log) while reporting Kafka down and the relay behind', async () => {
    await t.knock().users.update('waiting-user', { name: 'Not yet streamed' });
    const ready = await eventually('the relay checkpoint to exist', async () => {
      const res = await t.http('GET', '/readyz', { key: null });
      return res.body.kafka_relay && res;
    });
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.backends.kafka.status).toBe('down');
    expect(ready.body.kafka_relay.lag_events).toBeGreaterThan(0);
    expect(ready.body.kafka_relay.events_published).toBe(0);
    const metrics = await t.http('GET', '/metrics', { key: null });
    expect(metrics.body).toContain('notify_kafka_up 0\n');
    expect(metrics.body).toMatch(/notify_kafka_relay_lag_events\{relay="kafka-relay:unreachable\.events\.v1"\} [1-9]\d*\n/);
  });
});
