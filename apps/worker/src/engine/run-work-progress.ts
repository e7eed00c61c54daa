import { OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { createKafka, kafkaSettingsFrom, runWorkDispatcherName, topicEndOffsets } from '@notify/messaging';
import type { Admin } from 'kafkajs';
import { FANOUT_REACTOR, kafkaPartitioning, RUN_EXECUTOR_REACTOR, runWorkGroupId } from './partitioning';

/** Whether every run started by what the log holds before a position has been executed as far as it could go. */
export type RunsThrough = (position: string) => Promise<boolean>;

interface Target {
  after: string;
  head: string;
  /** Kafka mode: the work topic's end offsets once the dispatcher had published everything up to `head`. */
  ends?: Map<number, bigint>;
}

/**
 * The batch closer's wait (ADR 0185): a window closes only after the runs whose triggers were
 * accepted while it was open have reached the batch step.
 *
 * - From the log (no Kafka partitioning): the fan-out reactor has passed `position`, and the run
 *   executor has passed everything the log held by then.
 * - Through Kafka: the fan-out has passed `position`; the dispatcher has published the work of
 *   everything the log held by then; the consumer group has committed, on every partition of the
 *   work topic, the offsets that work ended at (an offset is committed only after its runs were
 *   executed and their events appended).
 */
export class RunWorkProgress implements OnApplicationShutdown {
  private target?: Target;
  private admin?: Promise<Admin>;

  constructor(
    private readonly store: EventStore,
    private readonly database: Database,
    private readonly config: AppConfig,
  ) {}

  readonly runsThrough: RunsThrough = async (position) => {
    const kafka = kafkaPartitioning(this.config);
    const settings = kafka ? kafkaSettingsFrom(this.config)! : undefined;
    const executor = settings ? runWorkDispatcherName(settings.topics.runWork) : RUN_EXECUTOR_REACTOR;
    const rows = await this.database.dataSource.query<{ name: string; position: string }[]>(
      'SELECT name, position FROM reactor_checkpoints WHERE name = ANY($1)',
      [[FANOUT_REACTOR, executor]],
    );
    const at = (name: string) => rows.find((r) => r.name === name)?.position ?? '';
    if (at(FANOUT_REACTOR) < position) return false;
    if (this.target?.after !== position) this.target = { after: position, head: String(await this.store.newestPosition()) };
    const target = this.target;
    if (at(executor) < target.head) return false;
    if (!settings) return true;
    const admin = await this.connect();
    const topic = settings.topics.runWork;
    target.ends ??= await topicEndOffsets(admin, topic);
    const [committed] = await admin.fetchOffsets({ groupId: runWorkGroupId(this.config), topics: [topic] });
    const done = new Map((committed?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
    return [...target.ends].every(([partition, end]) => end === 0n || (done.get(partition) ?? -1n) >= end);
  };

  /** After the reactors (and so the batch closer) stopped, in `beforeApplicationShutdown`. */
  async onApplicationShutdown(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    if (admin) await (await admin.catch(() => undefined))?.disconnect().catch(() => undefined);
  }

  private connect(): Promise<Admin> {
    this.admin ??= (async () => {
      const admin = createKafka(kafkaSettingsFrom(this.config)!, { role: 'engine-batches' }).admin();
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.admin = undefined;
      throw error;
    });
    return this.admin;
  }
}
