import { allowListProblems } from '@notify/outbound';
import { z } from 'zod';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

const urlWithScheme = (schemes: string[]) =>
  optionalString.refine((v) => v === undefined || schemes.some((s) => v.startsWith(`${s}://`)), {
    message: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`,
  });

/**
 * Every setting the service reads. The README's settings table lists these same names; keep
 * the two in step.
 */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** OpenTelemetry: OTLP/HTTP base URL of a collector (traces go to <url>/v1/traces). Unset: no traces exported. */
  OTEL_EXPORTER_OTLP_ENDPOINT: urlWithScheme(['http', 'https']),
  /** OpenTelemetry: the full OTLP/HTTP traces URL; overrides OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: urlWithScheme(['http', 'https']),
  OTEL_SERVICE_NAME: z.string().min(1).default('notify'),
  /** Fraction of new traces kept (0-1); requests that arrive with a sampled traceparent are always kept. */
  OTEL_TRACES_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
  /** A worker run as its own process answers GET /metrics on this port (0: any free port). Unset: no listener. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql']),
  // The service holds a connection for its own work (the log's listener, a projection's batch)
  // while requests need others: one is never enough.
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(2, 'must be at least 2: the service needs a connection besides the one a batch holds')
    .max(200)
    .default(10),
  /**
   * Connections the pool keeps once opened, however long they sit idle (above it, idle ones close
   * after 10 s). Unset: DATABASE_POOL_SIZE, a fixed-size pool once warm, so bursts never wait for
   * new connections.
   */
  DATABASE_POOL_MIN_IDLE: z.coerce.number().int().min(0).max(200).optional(),
  /**
   * Longest a query waits for a free pool connection before it fails (the request then answers
   * 503 `database_unavailable`), and longest a new connection may take to open.
   */
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  EVENTSTORE_CONNECTION_STRING: urlWithScheme(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kurrent', 'kurrent+discover']),
  /** Comma-separated host:port list. Unset: Kafka is off (no relay, nothing else changes). */
  KAFKA_BROKERS: optionalString.refine((v) => v === undefined || v.split(',').every((b) => /^[^\s:,]+:\d{1,5}$/.test(b.trim())), {
    message: 'must be a comma-separated list of host:port',
  }),
  KAFKA_CLIENT_ID: z.string().trim().min(1).default('notify'),
  /** Topic names are `<prefix>events.v1`, `<prefix>message-events.v1`, `<prefix>workflow-run-events.v1`. */
  KAFKA_TOPIC_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, dot, underscore, dash')
    .default('notify.'),
  /** Partitions of topics the service creates; fixed at creation (more later would move keys). */
  KAFKA_TOPIC_PARTITIONS: z.coerce.number().int().min(1).max(10_000).default(6),
  /** Unset: the broker's default.replication.factor. Use 3 in production. */
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(32).optional(),
  /** Topic-level min.insync.replicas for created topics; unset: the broker's default. */
  KAFKA_MIN_INSYNC_REPLICAS: z.coerce.number().int().min(1).max(32).optional(),
  /** Topic-level retention.ms for created topics; unset: the broker's default; -1 keeps forever. */
  KAFKA_RETENTION_MS: z.coerce.number().int().min(-1).optional(),
  /**
   * A user's erasure publishes tombstones under the user's key on the message-events and
   * workflow-run-events topics, and those topics are created compacted, so the broker drops the
   * user's records (ADR 0179).
   */
  KAFKA_ERASURE_TOMBSTONES: flag(false),
  /**
   * With KAFKA_ERASURE_TOMBSTONES: how long records of the compacted topics stay whole before
   * compaction keeps only a recipient's newest.
   */
  KAFKA_MIN_COMPACTION_LAG_MS: z.coerce.number().int().min(0).default(604_800_000),
  /** Create missing topics at start; turn off where topics are managed elsewhere. */
  KAFKA_CREATE_TOPICS: flag(true),
  /** Run the relay in this worker (with KAFKA_BROKERS set). Turn off on all but one worker to avoid duplicate publishing work. */
  KAFKA_RELAY_ENABLED: flag(true),
  /** Where a relay without a checkpoint starts: the whole log, or only what is appended from now on. */
  KAFKA_RELAY_START_FROM: z.enum(['beginning', 'end']).default('beginning'),
  /** Events read from the log and published per batch. */
  KAFKA_RELAY_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  /** Upper bound on the bytes of one produce call; larger batches are split in order. */
  KAFKA_MAX_REQUEST_BYTES: z.coerce.number().int().min(1024).default(900_000),
  KAFKA_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000),
  KAFKA_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  KAFKA_SSL: flag(false),
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: optionalString,
  KAFKA_SASL_PASSWORD: optionalString,
  REDIS_URL: urlWithScheme(['redis', 'rediss']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BOOTSTRAP_SECRET_KEY: optionalString.refine((v) => v === undefined || /^sk_[A-Za-z0-9_-]{16,}$/.test(v), {
    message: 'must start with sk_ followed by at least 16 letters, digits, _ or -',
  }),
  BOOTSTRAP_PUBLISHABLE_KEY: optionalString.refine((v) => v === undefined || /^pk_[A-Za-z0-9_-]{16,}$/.test(v), {
    message: 'must start with pk_ followed by at least 16 letters, digits, _ or -',
  }),
  BOOTSTRAP_SERVICE_TOKEN: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9_-]{24,}$/.test(v), {
    message: 'must be at least 24 letters, digits, _ or -',
  }),
  /** The account's display name in `GET /v1/whoami`; its slug is derived from it. */
  ACCOUNT_NAME: z.string().trim().min(1).max(255).default('Notify'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Deepest nesting of objects and arrays accepted in a JSON request body. */
  BODY_MAX_DEPTH: z.coerce.number().int().min(8).max(1000).default(64),
  CORS_ORIGINS: z.string().default('*'),
  /** Requests one api process works on at once; more wait in the queue below. */
  HTTP_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(64),
  /** Requests that may wait for a place; beyond it a request is refused at once (503 `overloaded`). */
  HTTP_QUEUE_SIZE: z.coerce.number().int().min(0).max(100_000).default(64),
  /** Longest a request waits in that queue before it is refused. */
  HTTP_QUEUE_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(1000),
  RATE_LIMIT_ENABLED: flag(true),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  /** Rewrite links of email and in-app content to tracked links that record link_clicked and redirect. */
  LINK_TRACKING_ENABLED: flag(false),
  /**
   * How long signed preference links (hosted preference page, one-click unsubscribe) stay valid,
   * from when they are made (ADR 0190).
   */
  PREFERENCE_LINK_TTL_SECONDS: z.coerce.number().int().min(60).max(31_536_000).default(2_592_000),
  /** How long a console member's signed session cookie lasts (ADR 0210). */
  CONSOLE_SESSION_TTL_SECONDS: z.coerce.number().int().min(60).max(2_592_000).default(43_200),
  /** How long a one-time console login link printed by `notify console login-link` stays valid. */
  CONSOLE_LOGIN_LINK_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /**
   * Origins Amazon SNS signing certificates (and subscription confirmations) may be fetched from,
   * comma-separated; `*` stands for one DNS label or a port (ADR 0203).
   */
  SNS_CERTIFICATE_ORIGINS: z
    .string()
    .default('https://sns.*.amazonaws.com,https://sns.*.amazonaws.com.cn')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  /** The service's address as recipients reach it (tracked links point here). */
  PUBLIC_URL: urlWithScheme(['http', 'https']),
  /** Where uploaded asset contents are kept: in the database, or in an S3-compatible bucket (ADR 0159). */
  ASSETS_STORAGE: z.enum(['database', 's3']).default('database'),
  /** Largest file `POST /v1/assets/upload` takes (streamed; above it: 413). The JSON upload keeps ASSET_MAX_BYTES (ADR 0227). */
  ASSETS_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(5 * 1024 ** 3)
    .default(25 * 1024 * 1024),
  /** The bucket asset contents go to when ASSETS_STORAGE=s3 (it must exist). */
  ASSETS_S3_BUCKET: optionalString,
  /** Key prefix of asset contents in the bucket; each object is named by its content's sha256. */
  ASSETS_S3_PREFIX: z.string().default('assets/'),
  ASSETS_S3_REGION: z.string().min(1).default('us-east-1'),
  /** An S3-compatible server's address (MinIO, Ceph, R2, S3Proxy...); unset: AWS S3 of the region. */
  ASSETS_S3_ENDPOINT: urlWithScheme(['http', 'https']),
  /** Address buckets in the path (`endpoint/bucket/key`), as most S3-compatible servers want. */
  ASSETS_S3_FORCE_PATH_STYLE: flag(false),
  /** Static credentials; unset: the AWS SDK's default chain (environment, profile, instance role). */
  ASSETS_S3_ACCESS_KEY_ID: optionalString,
  ASSETS_S3_SECRET_ACCESS_KEY: optionalString,
  /** Messages older than this are left out of message listings and bulk actions, except in-app ones. */
  MESSAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  /**
   * 32 bytes (base64 or 64 hex characters) sealing secret settings (provider credentials, secret
   * variables) in the event log. Unset: a key is generated once into DATA_DIR/secrets.key, which
   * suits one instance; set it when several api instances share a database.
   */
  SECRETS_KEY: optionalString.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32, {
    message: 'must be 32 bytes, as 64 hex characters or base64',
  }),
  /**
   * 32 bytes (base64 or 64 hex characters) wrapping the per-subject keys that seal personal fields
   * in events (ADR 0180). Unset: generated once into DATA_DIR/erasure.key.
   */
  ERASURE_MASTER_KEY: optionalString.refine(
    (v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32,
    {
      message: 'must be 32 bytes, as 64 hex characters or base64',
    },
  ),
  PROJECTION_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(2000),
  /** The longest the run history read model waits at a stretch while messages or runs are behind (ADR 0286); 0: never. */
  PROJECTION_BACKGROUND_MAX_DEFER_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  ENGINE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  /** Runs whose steps need nothing asynchronous are executed by the trigger request, appended with the trigger (ADR 0258). */
  ENGINE_INLINE_RUNS: flag(true),
  /** With KAFKA_BROKERS set, workers share recipient runs through the run-work topic's consumer group (one owner per recipient). */
  ENGINE_KAFKA_PARTITIONING: flag(true),
  /** Consumer group of the workers executing runs: workers sharing one database share one group. */
  ENGINE_KAFKA_GROUP_ID: optionalString,
  /** How long a worker that stopped answering keeps its partitions before the group gives them to the others. */
  ENGINE_KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).max(300_000).default(30_000),
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  DELIVERY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(15_000),
  DELIVERY_RETRY_MAX_MS: z.coerce.number().int().min(1).default(900_000),
  /**
   * Non-public addresses outbound HTTP may call (fetch steps, webhooks, chat webhooks, provider
   * base URLs): IP addresses and CIDR ranges separated by commas, e.g. `10.1.0.0/16,fd00::/8`.
   * Unset: public addresses only; loopback, private, link-local, unique-local and the like are refused.
   */
  OUTBOUND_ALLOWED_ADDRESSES: optionalString.superRefine((v, ctx) => {
    for (const message of allowListProblems(v?.split(/[\s,]+/).filter(Boolean) ?? [])) ctx.addIssue({ code: 'custom', message });
  }),
  /** Bytes of each request and response body kept in a delivery log entry; longer bodies are cut. */
  DELIVERY_LOG_MAX_BODY_BYTES: z.coerce.number().int().min(256).max(1_048_576).default(16_384),
  /**
   * Worker threads rendering templates at send time (and for feed locales and previews), so a
   * template that keeps the CPU busy holds one thread, not the process. 0 renders on the main thread.
   */
  TEMPLATE_WORKER_THREADS: z.coerce.number().int().min(0).max(64).default(4),
  /** A render still running this long after it started is stopped (its thread is replaced) and fails as template_limit. */
  TEMPLATE_HARD_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  FETCH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** A fetch step's request, redirects and body included, must finish within this. */
  FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** First retry delay of a fetch step; doubled per attempt up to FETCH_RETRY_MAX_MS. */
  FETCH_RETRY_BASE_MS: z.coerce.number().int().min(1).default(5_000),
  FETCH_RETRY_MAX_MS: z.coerce.number().int().min(1).default(300_000),
  /** The zone schedules fire in when their recipient has no timezone (ADR 0140). */
  SCHEDULES_DEFAULT_TIMEZONE: z
    .string()
    .default('UTC')
    .refine((tz) => tz === 'UTC' || Intl.supportedValuesOf('timeZone').includes(tz), 'must be an IANA time zone such as Europe/Berlin'),
  /** Missed occurrences younger than this still fire after a downtime; older ones are recorded as skipped (ADR 0142). */
  SCHEDULES_CATCH_UP_MS: z.coerce.number().int().min(0).default(3_600_000),
  /** Schedules one claim of the firer decides at once. */
  SCHEDULES_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Recipients a broadcast sender triggers per page (one progress record on the broadcast's stream each, ADR 0172). */
  BROADCASTS_PAGE_SIZE: z.coerce.number().int().min(1).max(5000).default(1000),
  /** Claims one worker works on at once. */
  SCHEDULES_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
});

export type AppConfig = z.infer<typeof ConfigSchema>;

function checkKafka(config: AppConfig): string[] {
  const problems: string[] = [];
  if (config.KAFKA_SASL_MECHANISM && (!config.KAFKA_SASL_USERNAME || !config.KAFKA_SASL_PASSWORD)) {
    problems.push('KAFKA_SASL_MECHANISM: needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD');
  }
  if (
    config.KAFKA_MIN_INSYNC_REPLICAS &&
    config.KAFKA_REPLICATION_FACTOR &&
    config.KAFKA_MIN_INSYNC_REPLICAS > config.KAFKA_REPLICATION_FACTOR
  ) {
    problems.push('KAFKA_MIN_INSYNC_REPLICAS: cannot exceed KAFKA_REPLICATION_FACTOR');
  }
  return problems;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once; the message names each bad setting and why. */
export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const problems = [
    ...checkKafka(result.data),
    ...(result.data.DATABASE_POOL_MIN_IDLE !== undefined && result.data.DATABASE_POOL_MIN_IDLE > result.data.DATABASE_POOL_SIZE
      ? ['DATABASE_POOL_MIN_IDLE: cannot exceed DATABASE_POOL_SIZE']
      : []),
    ...(result.data.ASSETS_STORAGE === 's3' && !result.data.ASSETS_S3_BUCKET ? ['ASSETS_S3_BUCKET: needed when ASSETS_STORAGE=s3'] : []),
    ...(!!result.data.ASSETS_S3_ACCESS_KEY_ID !== !!result.data.ASSETS_S3_SECRET_ACCESS_KEY
      ? ['ASSETS_S3_ACCESS_KEY_ID: set together with ASSETS_S3_SECRET_ACCESS_KEY (or neither, for the default credential chain)']
      : []),
    ...(result.data.LINK_TRACKING_ENABLED && !result.data.PUBLIC_URL
      ? ['LINK_TRACKING_ENABLED: needs PUBLIC_URL (where tracked links point)']
      : []),
  ];
  if (problems.length) throw new ConfigError(problems);
  return result.data;
}
