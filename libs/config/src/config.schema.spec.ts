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

  it('keeps DATABASE_POOL_MIN_IDLE within DATABASE_POOL_SIZE', () => {
    expect(parseConfig({ DATABASE_POOL_SIZE: '8', DATABASE_POOL_MIN_IDLE: '2' })).toMatchObject({
      DATABASE_POOL_SIZE: 8,
      DATABASE_POOL_MIN_IDLE: 2,
    });
    expect(parseConfig({}).DATABASE_POOL_MIN_IDLE).toBeUndefined();
    expect(() => parseConfig({ DATABASE_POOL_SIZE: '4', DATABASE_POOL_MIN_IDLE: '5' })).toThrow(
      'DATABASE_POOL_MIN_IDLE: cannot exceed DATABASE_POOL_SIZE',
    );
  });

  it('keeps assets in the database unless S3 storage is chosen with its bucket', () => {
    expect(parseConfig({}).ASSETS_STORAGE).toBe('database');
    expect(() => parseConfig({ ASSETS_STORAGE: 's3' })).toThrow('ASSETS_S3_BUCKET: needed when ASSETS_STORAGE=s3');
    expect(() => parseConfig({ ASSETS_STORAGE: 's3', ASSETS_S3_BUCKET: 'b', ASSETS_S3_ACCESS_KEY_ID: 'id' })).toThrow(
      'ASSETS_S3_ACCESS_KEY_ID: set together with ASSETS_S3_SECRET_ACCESS_KEY',
    );
    expect(() => parseConfig({ ASSETS_STORAGE: 'gcs' })).toThrow('ASSETS_STORAGE');
    expect(
      parseConfig({
        ASSETS_STORAGE: 's3',
        ASSETS_S3_BUCKET: 'b',
        ASSETS_S3_ENDPOINT: 'http://127.0.0.1:9000',
        ASSETS_S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toMatchObject({
      ASSETS_S3_BUCKET: 'b',
      ASSETS_S3_PREFIX: 'assets/',
      ASSETS_S3_REGION: 'us-east-1',
      ASSETS_S3_FORCE_PATH_STYLE: true,
    });
  });

  describe('Kafka', () => {
    it('is off with sensible defaults for everything else', () => {
      const config = parseConfig({});
      expect(config).toMatchObject({
        KAFKA_CLIENT_ID: 'notify',
        KAFKA_TOPIC_PREFIX: 'notify.',
        KAFKA_TOPIC_PARTITIONS: 6,
        KAFKA_CREATE_TOPICS: true,
        KAFKA_RELAY_ENABLED: true,
        KAFKA_RELAY_START_FROM: 'beginning',
      });
      expect(config.KAFKA_REPLICATION_FACTOR).toBeUndefined();
    });

    it('reads every Kafka setting', () => {
      const config = parseConfig({
        KAFKA_BROKERS: 'k1:9092, k2:9092',
        KAFKA_TOPIC_PREFIX: 'acme.notify.',
        KAFKA_TOPIC_PARTITIONS: '12',
        KAFKA_REPLICATION_FACTOR: '3',
        KAFKA_MIN_INSYNC_REPLICAS: '2',
        KAFKA_RELAY_ENABLED: 'false',
        KAFKA_RELAY_START_FROM: 'end',
        KAFKA_SSL: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'svc',
        KAFKA_SASL_PASSWORD: 'secret',
      });
      expect(config).toMatchObject({
        KAFKA_TOPIC_PARTITIONS: 12,
        KAFKA_REPLICATION_FACTOR: 3,
        KAFKA_MIN_INSYNC_REPLICAS: 2,
        KAFKA_RELAY_ENABLED: false,
        KAFKA_RELAY_START_FROM: 'end',
        KAFKA_SSL: true,
      });
    });

    it('names bad Kafka settings', () => {
      expect(() => parseConfig({ KAFKA_BROKERS: 'http://k1' })).toThrow('KAFKA_BROKERS: must be a comma-separated list of host:port');
      expect(() => parseConfig({ KAFKA_SASL_MECHANISM: 'plain' })).toThrow(
        'KAFKA_SASL_MECHANISM: needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD',
      );
      expect(() => parseConfig({ KAFKA_REPLICATION_FACTOR: '1', KAFKA_MIN_INSYNC_REPLICAS: '2' })).toThrow(
        'KAFKA_MIN_INSYNC_REPLICAS: cannot exceed KAFKA_REPLICATION_FACTOR',
      );
      expect(() => parseConfig({ KAFKA_TOPIC_PREFIX: 'bad prefix/' })).toThrow('KAFKA_TOPIC_PREFIX');
    });
  });
});
