/**
 * The one place tests read the environment. `.ci/run` sets REQUIRE_BACKENDS so that a missing
 * backend fails the run instead of quietly narrowing it.
 */
export const testEnv = {
  postgresUrl: process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined,
  kafkaBrokers: process.env.KAFKA_BROKERS || undefined,
  eventStoreDbUrl: process.env.EVENTSTORE_CONNECTION_STRING || undefined,
  redisUrl: process.env.REDIS_URL || undefined,
  required: new Set(
    (process.env.REQUIRE_BACKENDS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
};

export function requireBackend(name: 'postgres' | 'kafka' | 'redis' | 'eventstoredb' | 's3', available: boolean): void {
  if (!available && testEnv.required.has(name)) {
    throw new Error(`Backend ${name} is required (REQUIRE_BACKENDS=${[...testEnv.required].join(',')}) but is not configured`);
  }
}
