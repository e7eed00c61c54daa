/**
 * Kafka relay throughput against a bare kafkajs producer, same broker, same run, same records.
 *
 *   KAFKA_BROKERS=127.0.0.1:9092 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:relay
 *
 * Settings (environment): BENCH_EVENTS (20000), BENCH_STREAMS (1000), BENCH_PAYLOAD_BYTES (512),
 * BENCH_BATCH (500, as KAFKA_RELAY_BATCH_SIZE), BENCH_ROUNDS (3), BENCH_PARTITIONS (6).
 *
 * - relay: ReactorRuntime.drain over the log (read a batch from PostgreSQL, map, produce with
 *   the idempotent producer and acks=all, wait for the acknowledgement, move the checkpoint). One
 *   publisher (one producer thread) serves every round, as one serves a running service.
 * - bare producer, same settings: the same serialized records, the same producer options and
 *   batch size, one batch at a time (what the relay's ordering guarantee allows).
 * - bare producer, pipelined: the same records, every batch in flight at once: the broker's
 *   ceiling here, not something the relay could do without giving up per-key order on retries.
 *
 * Prints a table and writes bench/results/relay.json. Each round uses fresh topics. `npm run bench`
 * runs this script under the worker's start command's node options, where the relay runs (ADR
 * 0279); `npm run bench:relay` runs it under node's defaults.
 */
import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import {
  createKafka,
  DomainEventMapper,
  domainEventRecord,
  ensureTopics,
  KafkaPublisher,
  KafkaRelay,
  KafkaSettings,
  RelayMapperRegistry,
} from '@notify/messaging';
import { ReactorRuntime } from '@notify/projection-runtime';
import { createTestDatabase, deleteTestTopics, kafkaTestSettings } from '@notify/testing';
import { Message, Partitioners } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const EVENTS = num('BENCH_EVENTS', 20_000);
const STREAMS = num('BENCH_STREAMS', 1000);
const PAYLOAD = num('BENCH_PAYLOAD_BYTES', 512);
const BATCH = num('BENCH_BATCH', 500);
const ROUNDS = num('BENCH_ROUNDS', 3);
const PARTITIONS = num('BENCH_PARTITIONS', 6);

type Result = { name: string; seconds: number[]; eventsPerSecond: number };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU time of this process since `from`, in ms (user and system). */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return Math.round((used.user + used.system) / 1000);
};
/** CPU ms of this process per round of the bare producer, one batch at a time. */
const bareCpuMs: number[] = [];

/** Linux's USER_HZ: the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

/** CPU ms so far of each thread of this process, and of the local PostgreSQL and Kafka broker processes (Linux; empty elsewhere). */
function cpuByPlace(): Map<string, number> {
  const out = new Map<string, number>();
  const ticks = (statFile: string) => {
    try {
      const fields = readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return 0; // gone in between
    }
  };
  try {
    for (const tid of readdirSync('/proc/self/task')) out.set(`thread ${tid}`, ticks(`/proc/self/task/${tid}/stat`));
    for (const pid of readdirSync('/proc').filter((d) => /^[0-9]+$/.test(d))) {
      let place: string | undefined;
      try {
        const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        if (comm === 'postgres') place = 'postgres';
        else if (comm === 'java' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka')) place = 'broker';
      } catch {
        continue;
      }
      if (place) out.set(place, (out.get(place) ?? 0) + ticks(`/proc/${pid}/stat`));
    }
  } catch {
    return new Map();
  }
  return out;
}
/**
 * Where a round's CPU went: this process's main thread, its busiest other thread (the relay's
 * producer thread), its other threads together (the garbage collector's, libuv's), PostgreSQL and
 * a local broker. Read from /proc; empty where there is none.
 */
type CpuSplit = { main: number; busiestOther: number; otherThreads: number; postgres: number; broker: number };
function cpuSplit(before: Map<string, number>, after: Map<string, number>): CpuSplit | undefined {
  if (after.size === 0) return undefined;
  const delta = (key: string) => Math.round((after.get(key) ?? 0) - (before.get(key) ?? 0));
  const others = [...after.keys()].filter((k) => k.startsWith('thread ') && k !== `thread ${process.pid}`).map(delta);
  const busiest = Math.max(0, ...others);
  return {
    main: delta(`thread ${process.pid}`),
    busiestOther: busiest,
    otherThreads: others.reduce((a, b) => a + b, 0) - busiest,
    postgres: delta('postgres'),
    broker: delta('broker'),
  };
}
/** Per round, relay and bare producer (one batch at a time). */
const splits: { relay: CpuSplit[]; bare: CpuSplit[] } = { relay: [], bare: [] };
const showSplit = (c: CpuSplit) => `${c.main} / ${c.busiestOther} / ${c.otherThreads} / ${c.postgres} / ${c.broker}`;

/** Per relay round: ms waiting for publish, in handle besides it, and outside handle (reads, checkpoints). */
const stages: { cpuMs: number; publishMs: number; otherHandleMs: number; outsideHandleMs: number }[] = [];

/** Rounds run again because the broker refused a producer's sequence number, by producer. */
const redone: Record<string, number> = {};

/**
 * Runs a round, and runs it again (fresh topics, a new producer) when the broker refused a
 * sequence number of the idempotent producer: kafkajs can lose track of them under concurrent
 * sends (kafkajs issue 598), and a refused producer stays refused. The relay's own loop would
 * retry the batch with a new producer; the bench counts the round and prints how many were redone.
 */
async function timed(name: string, round: () => Promise<number>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await round();
    } catch (error) {
      if ((error as { type?: string }).type !== 'OUT_OF_ORDER_SEQUENCE_NUMBER' || attempt >= 3) throw error;
      redone[name] = (redone[name] ?? 0) + 1;
    }
  }
}

async function freshTopics(): Promise<KafkaSettings> {
  const settings = kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: String(PARTITIONS), KAFKA_RELAY_BATCH_SIZE: String(BATCH) });
  const admin = createKafka(settings).admin();
  await admin.connect();
  await ensureTopics(admin, settings);
  await admin.disconnect();
  return settings;
}

/** The topics of the relay's rounds. */
const relayTopics: KafkaSettings[] = [];

/**
 * One round of the relay. The publisher (its producer thread) is the same in every round, as a
 * running service keeps one: a fresh thread per round would run kafkajs cold every round, where
 * the bare producer's code is warm after its first round.
 */
async function timeRelay(
  store: PostgresEventStore,
  db: Awaited<ReturnType<typeof createTestDatabase>>,
  publisher: KafkaPublisher,
): Promise<number> {
  const settings = await freshTopics();
  const relay = new KafkaRelay(publisher, new RelayMapperRegistry([new DomainEventMapper()]), settings.topics, { batchSize: BATCH });
  const runtime = new ReactorRuntime(store, db.database.dataSource, [relay], { batchSize: BATCH });
  // Where the round's time goes: waiting for the broker (publish), handling a batch otherwise
  // (mapping not done ahead), and the rest (reading the log, moving the checkpoint).
  const spent = { publish: 0, handle: 0 };
  const timing =
    <A extends unknown[]>(key: keyof typeof spent, fn: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      const t = process.hrtime.bigint();
      try {
        await fn(...args);
      } finally {
        spent[key] += Number(process.hrtime.bigint() - t) / 1e6;
      }
    };
  const publish = publisher.publish;
  publisher.publish = timing('publish', publish.bind(publisher));
  relay.handle = timing('handle', relay.handle.bind(relay));
  // Connect (and find the topics) before the clock starts, as a running relay would have.
  await publisher.connect();
  try {
    const cpu = process.cpuUsage();
    const places = cpuByPlace();
    const started = process.hrtime.bigint();
    const handled = await runtime.drain(relay.name);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const split = cpuSplit(places, cpuByPlace());
    if (split) splits.relay.push(split);
    if (handled !== EVENTS) throw new Error(`relay handled ${handled} of ${EVENTS}`);
    stages.push({
      cpuMs: cpuMs(cpu),
      publishMs: Math.round(spent.publish),
      otherHandleMs: Math.round(spent.handle - spent.publish),
      outsideHandleMs: Math.round(seconds * 1000 - spent.handle),
    });
    return seconds;
  } finally {
    publisher.publish = publish;
    // Deleted once the publisher is closed: its producer keeps refreshing the topics it sent to.
    relayTopics.push(settings);
  }
}

async function timeBare(events: RecordedEvent[], pipelined: boolean): Promise<number> {
  const settings = await freshTopics();
  const producer = createKafka(settings).producer({
    idempotent: true,
    maxInFlightRequests: pipelined ? 5 : 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  // Serialized as the relay serializes them; the clock covers producing only.
  const messages = events.map((e): Message => {
    const record = domainEventRecord(e, settings.topics.events);
    return { key: record.key, value: Buffer.from(JSON.stringify(record.value)), headers: record.headers };
  });
  const batches: Message[][] = [];
  for (let i = 0; i < messages.length; i += BATCH) batches.push(messages.slice(i, i + BATCH));
  const send = (batch: Message[]) => producer.sendBatch({ acks: -1, topicMessages: [{ topic: settings.topics.events, messages: batch }] });
  try {
    const cpu = process.cpuUsage();
    const places = cpuByPlace();
    const started = process.hrtime.bigint();
    if (pipelined) await Promise.all(batches.map(send));
    else for (const messages of batches) await send(messages);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const split = cpuSplit(places, cpuByPlace());
    if (split && !pipelined) splits.bare.push(split);
    if (!pipelined) bareCpuMs.push(cpuMs(cpu));
    return seconds;
  } finally {
    await producer.disconnect();
    await deleteTestTopics(settings);
  }
}

async function main() {
  if (!process.env.KAFKA_BROKERS) throw new Error('Set KAFKA_BROKERS (e.g. bash scripts/kafka/start.sh prints it)');
  const db = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'embedded', { poolSize: 4 });
  const store = await PostgresEventStore.create({ pool: db.database.pool });
  try {
    const payload = 'x'.repeat(PAYLOAD);
    const perAppend = Math.max(1, Math.floor(EVENTS / STREAMS));
    for (let n = 0; n < EVENTS;) {
      const stream = `bench-dev-${(n / perAppend) % STREAMS}`;
      const count = Math.min(perAppend, EVENTS - n);
      await store.append(
        stream,
        Array.from({ length: count }, (_, i) => ({
          id: randomUUID(),
          type: 'BenchEvent',
          data: { n: n + i, payload },
          metadata: { environment: 'dev', schema_version: 1 },
        })),
      );
      n += count;
    }
    const events = (await store.readAll({ maxCount: EVENTS + 1 })).events;
    const recordBytes = Buffer.byteLength(JSON.stringify(domainEventRecord(events[0], 't').value));

    const runs: Record<string, number[]> = { relay: [], bareSequential: [], barePipelined: [] };
    const publisher = new KafkaPublisher(kafkaTestSettings({ KAFKA_CREATE_TOPICS: 'false' }));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        runs.bareSequential.push(await timed('bareSequential', () => timeBare(events, false)));
        runs.relay.push(await timed('relay', () => timeRelay(store, db, publisher)));
        runs.barePipelined.push(await timed('barePipelined', () => timeBare(events, true)));
      }
    } finally {
      await publisher.close();
      for (const settings of relayTopics) await deleteTestTopics(settings);
    }
    const results: Result[] = [
      { name: 'relay (log -> Kafka, checkpointed)', seconds: runs.relay, eventsPerSecond: 0 },
      { name: 'bare kafkajs producer, same settings, one batch at a time', seconds: runs.bareSequential, eventsPerSecond: 0 },
      { name: 'bare kafkajs producer, 5 batches in flight', seconds: runs.barePipelined, eventsPerSecond: 0 },
    ].map((r) => ({ ...r, eventsPerSecond: Math.round(EVENTS / median(r.seconds)) }));

    const setup = {
      events: EVENTS,
      streams: STREAMS,
      payloadBytes: PAYLOAD,
      recordValueBytes: recordBytes,
      batch: BATCH,
      partitions: PARTITIONS,
      rounds: ROUNDS,
      acks: 'all',
      idempotent: true,
      database: db.backend,
      cpus: os.cpus().length,
      node: process.version,
    };
    console.log(`\nKafka relay benchmark: ${JSON.stringify(setup)}\n`);
    console.log('| producer | events/s (median) | seconds per round |');
    console.log('|---|---:|---|');
    for (const r of results) console.log(`| ${r.name} | ${r.eventsPerSecond} | ${r.seconds.map((s) => s.toFixed(2)).join(', ')} |`);
    const relayShare = results[0].eventsPerSecond / results[1].eventsPerSecond;
    console.log(`\nrelay / bare (same settings): ${(relayShare * 100).toFixed(0)}%`);
    console.log(
      `relay rounds, ms publishing / handling otherwise / outside handle (process CPU ms): ${stages.map((s) => `${s.publishMs} / ${s.otherHandleMs} / ${s.outsideHandleMs} (${s.cpuMs})`).join(', ')}`,
    );
    console.log(`bare rounds one batch at a time, process CPU ms: ${bareCpuMs.join(', ')}`);
    if (splits.relay.length)
      console.log(
        'CPU ms per round, main thread / busiest other thread (the producer thread in the relay) / other threads / PostgreSQL / local broker:\n' +
          `  relay: ${splits.relay.map(showSplit).join(', ')}\n  bare (one batch at a time): ${splits.bare.map(showSplit).join(', ')}`,
      );
    if (Object.keys(redone).length) console.log(`rounds run again after the broker refused a sequence number: ${JSON.stringify(redone)}`);
    const out = path.resolve('bench/results/relay.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(
      out,
      `${JSON.stringify({ at: new Date().toISOString(), setup, results, relayStages: stages, bareCpuMs, cpuSplits: splits, redone }, null, 2)}\n`,
    );
    console.log(`wrote ${path.relative(process.cwd(), out)}`);
  } finally {
    await store.close();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
