import { ConfigError, parseConfig } from './config.schema';

describe('parseConfig', () => {
  it('applies the embedded defaults when nothing is set', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './.data', RATE_LIMIT_ENABLED: true });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.KAFKA_BROKERS).toBeUndefined();
  });

  it('treats empty strings as unset', () => {
    const config = parseConfig({ DATABASE_URL: '', KAFKA_BROKERS: ' ' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.KAFKA_BROKERS).toBeUndefined();
  });

  it('names every bad setting in one error', () => {
    let caught: unknown;
    try {
      parseConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', BOOTSTRAP_SECRET_KEY: 'pk_wrongprefix123456', RATE_LIMIT_ENABLED: 'maybe' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL: must be a URL starting with postgres://');
    expect(message).toContain('BOOTSTRAP_SECRET_KEY');
    expect(message).toContain('RATE_LIMIT_ENABLED');
    expect((caught as ConfigError).problems).toHaveLength(4);
  });

  it('accepts real backends', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
      REDIS_URL: 'redis://127.0.0.1:6379',
      KAFKA_BROKERS: '127.0.0.1:9092',
      RATE_LIMIT_ENABLED: 'false',
    });
    expect(config.RATE_LIMIT_ENABLED).toBe(false);
    expect(config.EVENTSTORE_CONNECTION_STRING).toBe('esdb://localhost:2113?tls=false');
  });
});
