import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ConfigSchema, parseConfig } from './config.schema';

/**
 * docker-compose.yml cannot be run here (no Docker engine); this checks what can be checked
 * without it: the stack is all there, wired to itself, and the service's environment is
 * settings the service knows and accepts.
 */
describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(path.resolve(__dirname, '../../../docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<
      string,
      {
        image?: string;
        build?: string;
        command?: string[];
        environment?: Record<string, string>;
        depends_on?: Record<string, { condition: string }>;
        healthcheck?: unknown;
      }
    >;
    volumes: Record<string, unknown>;
  };
  const { services } = compose;

  it('describes the full stack: PostgreSQL, EventStoreDB, Kafka in KRaft mode, api and worker', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'eventstoredb', 'kafka', 'postgres', 'worker']);
    expect(services.kafka.environment).toMatchObject({
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@kafka:9093',
    });
    expect(services.kafka.environment!.KAFKA_ADVERTISED_LISTENERS).toContain('PLAINTEXT://kafka:9092');
    // The same command lines as the start scripts users run and the bench measures (ADR 0279).
    const scripts = (
      JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(services.api.command).toEqual(scripts['start:api'].split(' '));
    expect(services.worker.command).toEqual(scripts['start:worker'].split(' '));
    expect(services.api.command).toEqual(['node', '--max-semi-space-size=64', 'dist/apps/api/src/main.js']);
  });

  it('gives api and worker only settings the service knows, valid, pointing at the stack', () => {
    const known = new Set(Object.keys(ConfigSchema.shape));
    for (const name of ['api', 'worker']) {
      const env = services[name].environment!;
      expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
      const config = parseConfig(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{[A-Z_]+:-([^}]*)\}/, '$1')])));
      expect(config.DATABASE_URL).toBe(
        `postgres://postgres:${services.postgres.environment!.POSTGRES_PASSWORD}@postgres:5432/${services.postgres.environment!.POSTGRES_DB}`,
      );
      expect(config.EVENTSTORE_CONNECTION_STRING).toMatch(/^esdb:\/\/eventstoredb:2113/);
      expect(config.KAFKA_BROKERS).toBe('kafka:9092');
    }
  });

  it('starts each service after what it needs is healthy, and every dependency has a health check', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, exists: dependency in services }).toEqual({ name, dependency, exists: true });
        expect(condition).toBe('service_healthy');
        expect(services[dependency].healthcheck).toBeDefined();
      }
    }
    expect(Object.keys(services.api.depends_on!).sort()).toEqual(['eventstoredb', 'kafka', 'postgres']);
  });
});
