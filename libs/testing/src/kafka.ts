import { parseConfig } from '@notify/config';
import { createKafka, KafkaSettings, kafkaSettingsFrom, topicEndOffsets } from '@notify/messaging';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { testEnv } from './test-env';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '../../..');

/** Settings for the configured test broker with topics of their own (a fresh prefix). */
export function kafkaTestSettings(env: Record<string, string> = {}, brokers = testEnv.kafkaBrokers): KafkaSettings {
  if (!brokers) throw new Error('KAFKA_BROKERS is not set');
  return kafkaSettingsFrom(
    parseConfig({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC_PREFIX: `test-${randomBytes(4).toString('hex')}.`,
      KAFKA_TOPIC_PARTITIONS: '4',
      KAFKA_CONNECTION_TIMEOUT_MS: '1000',
      ...env,
    }),
  )!;
}

export interface ConsumedRecord {
  partition: number;
  offset: number;
  key: string;
  headers: Record<string, string>;
  value: any;
}

/**
 * Every record of a topic, read from the beginning up to the end offsets taken when called,
 * per partition in offset order (the order a consumer sees).
 */
export async function readTopicToEnd(settings: KafkaSettings, topic: string, timeoutMs = 60_000): Promise<ConsumedRecord[]> {
  const kafka = createKafka(settings, { role: 'test-reader' });
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map([...(await topicEndOffsets(admin, topic).finally(() => admin.disconnect()))].map(([p, high]) => [p, Number(high)]));
  const records: ConsumedRecord[] = [];
  const pending = new Set([...ends].filter(([, high]) => high > 0).map(([p]) => p));
  if (pending.size === 0) return records;
  const consumer = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, allowAutoTopicCreation: false });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ partition, message }) => {
      const offset = Number(message.offset);
      if (offset >= (ends.get(partition) ?? 0)) return;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) if (v !== undefined) headers[k] = v.toString();
      // A tombstone (no value) reads as null.
      const value = message.value === null ? null : JSON.parse(message.value.toString());
      records.push({ partition, offset, key: message.key?.toString() ?? '', headers, value });
      if (offset === ends.get(partition)! - 1) {
        pending.delete(partition);
        if (pending.size === 0) finish();
      }
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      finished,
      new Promise(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`read ${records.length} records of ${topic}, partitions ${[...pending]} not finished`)),
            timeoutMs,
          )),
      ),
    ]);
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
  return records;
}

export async function deleteTestTopics(settings: KafkaSettings): Promise<void> {
  const admin = createKafka(settings, { role: 'test-cleanup' }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const topics = Object.values(settings.topics).filter((t) => existing.has(t));
    if (topics.length) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A broker of the test's own (scripts/kafka/start.sh on free ports, a temporary data dir), for
 * tests that stop or kill it without disturbing the shared test broker other files use.
 */
export interface ScratchBroker {
  brokers: string;
  start(): Promise<void>;
  /** Controlled shutdown (scripts/kafka/stop.sh). */
  stop(): Promise<void>;
  /** SIGKILL: a crash, no controlled shutdown. */
  kill(): Promise<void>;
  destroy(): Promise<void>;
}

export async function scratchBroker(): Promise<ScratchBroker> {
  const [port, controllerPort] = [await freePort(), await freePort()];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'notify-kafka-scratch-'));
  const env = {
    ...process.env,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(controllerPort),
    KAFKA_DATA_DIR: dataDir,
    KAFKA_HEAP_OPTS: '-Xmx384m',
  };
  const script = (name: string, args: string[] = []) =>
    run('bash', [path.join(repoRoot, 'scripts/kafka', name), ...args], { env, timeout: 120_000 });
  const broker: ScratchBroker = {
    brokers: `127.0.0.1:${port}`,
    start: async () => void (await script('start.sh')),
    stop: async () => void (await script('stop.sh')),
    kill: async () => {
      const pid = Number(await readFile(path.join(dataDir, 'kafka.pid'), 'utf8'));
      process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`broker ${pid} survived SIGKILL`);
    },
    destroy: async () => {
      await script('stop.sh', ['--clean']).catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  await broker.start();
  return broker;
}
