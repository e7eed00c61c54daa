import { s3ProxyJar } from './s3proxy';

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

export function requireBackend(name: Backend, available: boolean): void {
  if (!available && testEnv.required.has(name)) {
    throw new Error(`Backend ${name} is required (REQUIRE_BACKENDS=${[...testEnv.required].join(',')}) but is not configured`);
  }
}

/** A backend a test can need: a server given by the environment (s3: the S3Proxy jar, started by the test). */
export type Backend = 'postgres' | 'kafka' | 'redis' | 'eventstoredb' | 's3';

function configured(name: Backend): boolean {
  switch (name) {
    case 'postgres':
      return !!testEnv.postgresUrl;
    case 'kafka':
      return !!testEnv.kafkaBrokers;
    case 'redis':
      return !!testEnv.redisUrl;
    case 'eventstoredb':
      return !!testEnv.eventStoreDbUrl;
    case 's3':
      return !!s3ProxyJar();
  }
}

/** Whether every backend is there; one that REQUIRE_BACKENDS names and that is missing fails the file (requireBackend). */
function available(backends: readonly Backend[]): boolean {
  let all = true;
  for (const name of backends) {
    const here = configured(name);
    requireBackend(name, here);
    all &&= here;
  }
  return all;
}

/** `describe` when every named backend is configured, else `describe.skip`: jest reports the suite as skipped. */
export function describeWith(...backends: Backend[]): jest.Describe {
  return available(backends) ? describe : describe.skip;
}

/** `it` when every named backend is configured, else `it.skip`: jest reports the test as skipped. */
export function itWith(...backends: Backend[]): jest.It {
  return available(backends) ? it : it.skip;
}
