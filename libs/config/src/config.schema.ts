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
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql']),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  EVENTSTORE_CONNECTION_STRING: urlWithScheme(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kurrent', 'kurrent+discover']),
  KAFKA_BROKERS: optionalString,
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
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  CORS_ORIGINS: z.string().default('*'),
  RATE_LIMIT_ENABLED: flag(true),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  /**
   * 32 bytes (base64 or 64 hex characters) sealing secret settings (provider credentials, secret
   * variables) in the event log. Unset: a key is generated once into DATA_DIR/secrets.key, which
   * suits one instance; set it when several api instances share a database.
   */
  SECRETS_KEY: optionalString.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32, {
    message: 'must be 32 bytes, as 64 hex characters or base64',
  }),
  PROJECTION_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
});

export type AppConfig = z.infer<typeof ConfigSchema>;

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
  return result.data;
}
