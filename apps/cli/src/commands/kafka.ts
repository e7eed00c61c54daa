import {
  createKafka,
  ensureTopics,
  KAFKA_SCHEMA_DIR,
  kafkaJsonSchemas,
  KafkaSettings,
  kafkaSettingsFrom,
  resolveTopic,
  schemaFileText,
  tailTopic,
  topicConfigs,
} from '@notify/messaging';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CliCommand, CommandContext, CommandGroup, UsageError } from '../command';

function settings(ctx: CommandContext): KafkaSettings {
  const found = kafkaSettingsFrom(ctx.config());
  if (!found) throw new UsageError('KAFKA_BROKERS is not set: Kafka is off. Set it to the brokers, e.g. KAFKA_BROKERS=127.0.0.1:9092');
  return found;
}

function positiveInt(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${flag} must be a positive integer`);
  return n;
}

const tail: CliCommand = {
  name: 'tail',
  summary: 'Print records of a topic as they arrive, one JSON object per line',
  usage:
    '[--topic events|message-events|workflow-run-events|NAME] [--from-beginning] [--max-messages N] [--group ID] [--format record|value]',
  options: {
    topic: { type: 'string', short: 't', default: 'events' },
    'from-beginning': { type: 'boolean', default: false },
    'max-messages': { type: 'string', short: 'n' },
    group: { type: 'string' },
    format: { type: 'string', default: 'record' },
  },
  async run(ctx: CommandContext) {
    const kafka = settings(ctx);
    const format = ctx.values.format as string;
    if (format !== 'record' && format !== 'value') throw new UsageError('--format must be record or value');
    const topic = resolveTopic(kafka.topics, ctx.values.topic as string);
    ctx.io.stderr.write(`tailing ${topic}${ctx.values['from-beginning'] ? ' from the beginning' : ''} (Ctrl-C to stop)\n`);
    await tailTopic(kafka, {
      topic,
      fromBeginning: ctx.values['from-beginning'] as boolean,
      groupId: ctx.values.group as string | undefined,
      maxMessages: positiveInt(ctx.values['max-messages'], 'max-messages'),
      signal: ctx.io.signal,
      onRecord: (record) => void ctx.io.stdout.write(`${JSON.stringify(format === 'value' ? record.value : record)}\n`),
    });
  },
};

const topics: CliCommand = {
  name: 'topics',
  summary: "Show the service's topics (partitions, whether they exist); --create creates the missing ones",
  usage: '[--create]',
  options: { create: { type: 'boolean', default: false } },
  async run(ctx: CommandContext) {
    const kafka = settings(ctx);
    const admin = createKafka(kafka, { role: 'cli' }).admin();
    await admin.connect();
    try {
      if (ctx.values.create) {
        for (const report of await ensureTopics(admin, kafka)) ctx.io.stdout.write(`${JSON.stringify(report)}\n`);
        return;
      }
      const existing = new Set(await admin.listTopics());
      const present = topicConfigs(kafka).filter((t) => existing.has(t.topic));
      const metadata = present.length ? await admin.fetchTopicMetadata({ topics: present.map((t) => t.topic) }) : { topics: [] };
      for (const t of topicConfigs(kafka)) {
        const found = metadata.topics.find((m) => m.name === t.topic);
        ctx.io.stdout.write(
          `${JSON.stringify({ topic: t.topic, exists: !!found, partitions: found?.partitions.length ?? null, wanted_partitions: t.numPartitions })}\n`,
        );
      }
    } finally {
      await admin.disconnect();
    }
  },
};

const schemas: CliCommand = {
  name: 'schemas',
  summary: `Write (or check) the JSON Schemas of the Kafka envelopes and event data under ${KAFKA_SCHEMA_DIR}`,
  usage: 'write|check [--dir PATH]',
  options: { dir: { type: 'string', default: KAFKA_SCHEMA_DIR } },
  positionals: true,
  async run(ctx: CommandContext) {
    const [action] = ctx.positionals;
    if (action !== 'write' && action !== 'check') throw new UsageError("say 'write' or 'check'");
    const dir = path.resolve(ctx.values.dir as string);
    const wanted = kafkaJsonSchemas();
    const drift: string[] = [];
    for (const [file, schema] of wanted) {
      const target = path.join(dir, file);
      const text = schemaFileText(schema);
      const current = await readFile(target, 'utf8').catch(() => undefined);
      if (current === text) continue;
      if (action === 'check') drift.push(`${file}: ${current === undefined ? 'missing' : 'differs'}`);
      else {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, text);
        ctx.io.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
      }
    }
    for (const sub of ['envelopes', 'events']) {
      for (const name of await readdir(path.join(dir, sub)).catch(() => [] as string[])) {
        if (!wanted.has(`${sub}/${name}`)) drift.push(`${sub}/${name}: no longer generated (delete it if the event type is gone)`);
      }
    }
    if (drift.length) {
      ctx.io.stderr.write(`${drift.join('\n')}\n`);
      if (action === 'check') ctx.io.stderr.write("run 'npm run kafka:schemas' and commit the result\n");
      return 1;
    }
    if (action === 'check') ctx.io.stdout.write(`${wanted.size} schemas up to date\n`);
  },
};

/** `notify kafka ...`: the event stream for downstream consumers. */
export const kafkaCommands: CommandGroup = {
  name: 'kafka',
  summary: 'Kafka event stream: tail topics, manage topics, publish the JSON Schemas',
  commands: [tail, topics, schemas],
};
