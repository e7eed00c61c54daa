import type { Logger } from '@notify/logging';
import { Kafka, logLevel } from 'kafkajs';
import { kafkaLogCreator } from './kafka-log';
import { kafkaClientConfig, KafkaSettings } from './kafka-settings';

/**
 * A kafkajs client for these settings. Each role names itself (relay, health, cli-tail, ...)
 * so broker logs and quotas tell the clients apart. The retry policy is bounded: a call that
 * cannot reach the broker fails within seconds and the caller (the reactor runtime, a probe)
 * decides when to try again.
 */
export function createKafka(settings: KafkaSettings, options: { role?: string; logger?: Logger; retries?: number } = {}): Kafka {
  return new Kafka({
    ...kafkaClientConfig(settings, options.role),
    logLevel: logLevel.INFO,
    logCreator: kafkaLogCreator(options.logger),
    retry: { retries: options.retries ?? 5, initialRetryTime: 300, maxRetryTime: 5000 },
  });
}

/** Resolves when a broker answers a metadata request; rejects otherwise (no retries). */
export async function probeKafka(settings: KafkaSettings, timeoutMs = 2000): Promise<{ brokers: number; controller: number | null }> {
  const admin = createKafka(
    { ...settings, connectionTimeoutMs: Math.min(settings.connectionTimeoutMs, timeoutMs), requestTimeoutMs: timeoutMs },
    { role: 'health', retries: 0 },
  ).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return { brokers: cluster.brokers.length, controller: cluster.controller };
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
