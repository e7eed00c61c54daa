import type { Logger } from '@notify/logging';
import { Admin, ConfigResourceTypes, ITopicConfig } from 'kafkajs';
import { KafkaSettings } from './kafka-settings';

export interface TopicReport {
  topic: string;
  created: boolean;
  partitions: number;
  /** Set when an existing topic differs from the settings (it is left as it is). */
  warning?: string;
}

/** The service's topics as the settings want them created. */
export function topicConfigs(settings: KafkaSettings): ITopicConfig[] {
  const configEntries: { name: string; value: string }[] = [{ name: 'cleanup.policy', value: 'delete' }];
  if (settings.minInsyncReplicas) configEntries.push({ name: 'min.insync.replicas', value: String(settings.minInsyncReplicas) });
  if (settings.retentionMs !== undefined) configEntries.push({ name: 'retention.ms', value: String(settings.retentionMs) });
  // The recipient-keyed topics are compacted when erasures publish tombstones (ADR 0179).
  const compacted = settings.erasureTombstones ? [settings.topics.messageEvents, settings.topics.workflowRunEvents] : [];
  return Object.values(settings.topics).map((topic) => ({
    topic,
    numPartitions: settings.partitions,
    // -1 lets the broker apply its default.replication.factor.
    replicationFactor: settings.replicationFactor ?? -1,
    configEntries: compacted.includes(topic)
      ? [
          ...configEntries.filter((e) => e.name !== 'cleanup.policy'),
          { name: 'cleanup.policy', value: 'compact,delete' },
          { name: 'min.compaction.lag.ms', value: String(settings.minCompactionLagMs) },
        ]
      : configEntries,
  }));
}

/**
 * Creates the missing topics and reports the existing ones. An existing topic is never
 * changed: adding partitions would move keys to other partitions and break per-key order for
 * consumers mid-stream, so a mismatch is only reported.
 */
export async function ensureTopics(
  admin: Admin,
  settings: KafkaSettings,
  logger?: Logger,
  options: { leaderWaitMs?: number } = {},
): Promise<TopicReport[]> {
  const wanted = topicConfigs(settings);
  const existing = new Set(await admin.listTopics());
  const missing = wanted.filter((t) => !existing.has(t.topic));
  if (missing.length) {
    try {
      // kafkajs' own wait for leaders gives up on UNKNOWN_TOPIC_OR_PARTITION, which a KRaft broker
      // answers until its metadata has caught up with the controller's (seconds on a loaded
      // machine): the wait is done below instead.
      await admin.createTopics({ topics: missing, waitForLeaders: false });
    } catch (error) {
      // Another process may have created it in between; anything else is re-thrown below by the metadata read.
      if (!/already exists/i.test((error as Error).message)) throw error;
    }
  }
  const metadata = await topicsWithLeaders(admin, wanted, options.leaderWaitMs ?? LEADER_WAIT_MS);
  const policies = await existingCleanupPolicies(
    admin,
    wanted.filter((t) => existing.has(t.topic) && t.configEntries?.some((e) => e.name === 'cleanup.policy' && e.value !== 'delete')),
  );
  return wanted.map((t) => {
    const partitions = metadata.topics.find((m) => m.name === t.topic)?.partitions.length ?? 0;
    const report: TopicReport = { topic: t.topic, created: missing.includes(t), partitions };
    const warnings: string[] = [];
    if (partitions !== t.numPartitions) {
      warnings.push(`has ${partitions} partitions, settings say ${t.numPartitions}; left unchanged (adding partitions would move keys)`);
      logger?.warn({ topic: t.topic, partitions, wanted: t.numPartitions }, 'kafka topic partition count differs from the settings');
    }
    const policy = policies.get(t.topic);
    const wantedPolicy = t.configEntries?.find((e) => e.name === 'cleanup.policy')?.value;
    if (policy !== undefined && policy !== wantedPolicy) {
      // An erasure's tombstones are still published; without compaction the broker keeps the records until retention.
      warnings.push(
        `has cleanup.policy ${policy}, settings say ${wantedPolicy}; left unchanged (set it with kafka-configs to compact erased users away)`,
      );
      logger?.warn({ topic: t.topic, policy, wanted: wantedPolicy }, 'kafka topic cleanup policy differs from the settings');
    }
    if (warnings.length) report.warning = warnings.join('; ');
    return report;
  });
}

/** The cleanup.policy of existing topics that the settings want compacted (ADR 0179). */
async function existingCleanupPolicies(admin: Admin, topics: ITopicConfig[]): Promise<Map<string, string>> {
  if (topics.length === 0) return new Map();
  const described = await admin.describeConfigs({
    resources: topics.map((t) => ({ type: ConfigResourceTypes.TOPIC, name: t.topic, configNames: ['cleanup.policy'] })),
    includeSynonyms: false,
  });
  const policies = new Map<string, string>();
  for (const r of described.resources) {
    const value = r.configEntries.find((e) => e.configName === 'cleanup.policy')?.configValue;
    if (value !== undefined) policies.set(r.resourceName, value);
  }
  return policies;
}

const LEADER_WAIT_MS = 60_000;
/** What a broker answers for a topic it has not fully learnt of yet. */
const NOT_YET = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE']);

type TopicsMetadata = Awaited<ReturnType<Admin['fetchTopicMetadata']>>;

/** The topics' metadata once every partition of each has a leader; an error after `waitMs`. */
async function topicsWithLeaders(admin: Admin, wanted: ITopicConfig[], waitMs: number): Promise<TopicsMetadata> {
  const deadline = Date.now() + waitMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    let reason: string;
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: wanted.map((t) => t.topic) });
      const waiting = wanted.filter((t) => {
        const partitions = metadata.topics.find((m) => m.name === t.topic)?.partitions ?? [];
        return partitions.length === 0 || partitions.some((p) => p.leader < 0);
      });
      if (waiting.length === 0) return metadata;
      reason = `no leader yet for ${waiting.map((t) => t.topic).join(', ')}`;
    } catch (error) {
      const type = (error as { type?: string }).type ?? '';
      if (!NOT_YET.has(type)) throw error;
      reason = type;
    }
    if (Date.now() + delay > deadline) throw new Error(`Kafka topics not ready after ${waitMs} ms (${reason})`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Each partition's end offset (the offset the next record gets). kafkajs's `fetchTopicOffsets`
 * gives up at once on any error but an unknown topic, also on a retriable one such as "not the
 * leader for that partition", which a broker answers while it elects the leaders of a topic just
 * created: those are retried, with fresh metadata, for up to `timeoutMs`.
 */
export async function topicEndOffsets(admin: Admin, topic: string, timeoutMs = 10_000): Promise<Map<number, bigint>> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
    try {
      return new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable || Date.now() + wait > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
      await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => undefined);
    }
  }
}
