import type { Logger } from '@notify/logging';
import { Consumer, EachBatchPayload } from 'kafkajs';
import { createKafka } from '../kafka-client';
import { KafkaSettings } from '../kafka-settings';
import { ensureTopics } from '../topic-admin';
import { RunWorkV1 } from './run-work.v1';

export interface RunWorkConsumerOptions {
  groupId: string;
  sessionTimeoutMs: number;
  /** Work items handed to `execute` at once (offsets are committed after each chunk). */
  chunkSize?: number;
  logger?: Logger;
  /** Called after every rebalance with the work topic's partitions this member now owns. */
  onAssignment?: (partitions: number[]) => void;
  /**
   * The group is rebalancing and this member is joining it again: until the next onAssignment it
   * may own nothing (a member the coordinator dropped, say after missing heartbeats, learns it here).
   */
  onRebalancing?: () => void;
  /** The consumer stopped for good (kafkajs does not restart it); the caller decides what next. */
  onCrash?: (error: Error) => void;
  /** How long stop() waits for kafkajs to leave the group (default STOP_TIMEOUT_MS). */
  stopTimeoutMs?: number;
}

/** Within the boot's 15 s shutdown bound, with room for the rest of the shutdown. */
const STOP_TIMEOUT_MS = 8000;

/**
 * One member of the consumer group that shares recipient runs: Kafka assigns it some
 * partitions of the work topic, which means some recipients, and it executes their runs. An
 * item's offset is committed only after `execute` returned (the run's events are in the log), so
 * a worker killed mid-batch leaves its uncommitted items to whoever gets its partitions next;
 * executing a run again appends nothing it already appended.
 */
export class RunWorkConsumer {
  private consumer?: Consumer;

  constructor(
    private readonly settings: KafkaSettings,
    private readonly options: RunWorkConsumerOptions,
  ) {}

  async start(execute: (items: RunWorkV1[]) => Promise<void>): Promise<void> {
    const kafka = createKafka(this.settings, { role: 'engine', logger: this.options.logger });
    const topic = this.settings.topics.runWork;
    if (this.settings.createTopics) {
      const admin = kafka.admin();
      await admin.connect();
      try {
        await ensureTopics(admin, this.settings, this.options.logger);
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    }
    const consumer = kafka.consumer({
      groupId: this.options.groupId,
      sessionTimeout: this.options.sessionTimeoutMs,
      heartbeatInterval: this.heartbeatIntervalMs(),
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 250,
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      const partitions = [...(event.payload.memberAssignment[topic] ?? [])].sort((a, b) => a - b);
      this.options.logger?.info({ topic, partitions, group: this.options.groupId }, 'run-work partitions assigned');
      this.options.onAssignment?.(partitions);
    });
    consumer.on(consumer.events.REBALANCING, () => this.options.onRebalancing?.());
    consumer.on(consumer.events.CRASH, (event) => {
      if (!event.payload.restart) this.options.onCrash?.(event.payload.error);
    });
    await consumer.connect();
    // A new group starts at the beginning: work published before any worker joined is not skipped.
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: (payload) => this.batch(payload, execute),
    });
  }

  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = undefined;
    if (!consumer) return;
    // Waits for the batch in progress; its executed chunks are committed, the rest is redelivered.
    // In the middle of a rebalance kafkajs waits for the group's join to finish, which lasts until
    // a member that went away without leaving times out: the wait is bounded so that a shutdown
    // ends within its own bound (boot: 15 s). What was not committed is redelivered to whoever
    // owns the partition next, and executing a run again appends nothing twice.
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.stopTimeoutMs ?? STOP_TIMEOUT_MS);
    });
    const outcome = await Promise.race([consumer.disconnect().then(() => 'stopped' as const), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'timeout')
      this.options.logger?.warn(
        { group: this.options.groupId },
        'the run-work consumer did not leave its group in time (a rebalance in progress); stopping without it',
      );
  }

  private heartbeatIntervalMs(): number {
    return Math.max(500, Math.floor(this.options.sessionTimeoutMs / 10));
  }

  private async batch(
    { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }: EachBatchPayload,
    execute: (items: RunWorkV1[]) => Promise<void>,
  ): Promise<void> {
    const size = this.options.chunkSize ?? 200;
    for (let i = 0; i < batch.messages.length; i += size) {
      if (!isRunning() || isStale()) return;
      const chunk = batch.messages.slice(i, i + size);
      const items: RunWorkV1[] = [];
      for (const message of chunk) {
        const parsed = RunWorkV1.safeParse(safeJson(message.value?.toString()));
        if (parsed.success) items.push(parsed.data);
        else
          this.options.logger?.error(
            { topic: batch.topic, partition: batch.partition, offset: message.offset },
            'run-work record is not a RunWorkV1; skipped',
          );
      }
      if (items.length) {
        // kafkajs heartbeats only when asked to inside a batch: a chunk that takes longer than the
        // session timeout (a loaded machine) would get this member dropped from the group while it
        // works, and its partitions handed to another. Heartbeat while the chunk executes; a failed
        // heartbeat (a rebalance) surfaces in the one after the chunk.
        const beating = setInterval(() => void heartbeat().catch(() => undefined), this.heartbeatIntervalMs());
        try {
          await execute(items);
        } finally {
          clearInterval(beating);
        }
      }
      resolveOffset(chunk[chunk.length - 1].offset);
      await commitOffsetsIfNecessary();
      await heartbeat();
    }
  }
}

function safeJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
