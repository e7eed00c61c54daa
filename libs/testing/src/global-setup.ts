import { Client } from 'pg';
import net from 'node:net';
import { testEnv } from './test-env';

/** Fails the run up front when a backend named in REQUIRE_BACKENDS is missing or unreachable. */
export default async function globalSetup(): Promise<void> {
  const problems: string[] = [];
  if (testEnv.required.has('postgres')) {
    if (!testEnv.postgresUrl) problems.push('postgres: TEST_DATABASE_URL/DATABASE_URL is not set');
    else {
      const client = new Client({ connectionString: testEnv.postgresUrl, connectionTimeoutMillis: 5000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
      } catch (error) {
        problems.push(`postgres: cannot connect to ${testEnv.postgresUrl}: ${(error as Error).message}`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }
  if (testEnv.required.has('kafka')) {
    if (!testEnv.kafkaBrokers) problems.push('kafka: KAFKA_BROKERS is not set');
    else if (!(await reachable(testEnv.kafkaBrokers.split(',')[0])))
      problems.push(`kafka: ${testEnv.kafkaBrokers} does not accept connections`);
  }
  if (testEnv.required.has('redis')) {
    if (!testEnv.redisUrl) problems.push('redis: REDIS_URL is not set');
    else {
      const u = new URL(testEnv.redisUrl);
      if (!(await reachable(`${u.hostname}:${u.port || 6379}`))) problems.push(`redis: ${testEnv.redisUrl} does not accept connections`);
    }
  }
  if (testEnv.required.has('eventstoredb') && !testEnv.eventStoreDbUrl)
    problems.push('eventstoredb: EVENTSTORE_CONNECTION_STRING is not set');
  if (problems.length) throw new Error(`Required test backends are missing:\n  ${problems.join('\n  ')}`);
}

function reachable(hostPort: string): Promise<boolean> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    socket.setTimeout(3000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
