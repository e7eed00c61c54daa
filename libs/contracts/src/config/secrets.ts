import { z } from 'zod';

/**
 * A value in an event: plain, or sealed (AES-256-GCM) when it is a secret, so the log and every
 * copy of it (Kafka, exports) never hold the secret in clear. `hint` is the last characters, for display.
 */
export const SealedSecret = z.object({ $sealed: z.string(), hint: z.string().max(8) });
export const SecretValue = z.union([z.string(), SealedSecret]);
export type SealedSecretT = z.infer<typeof SealedSecret>;
export type SecretValueT = z.infer<typeof SecretValue>;

export const isSealed = (v: unknown): v is SealedSecretT =>
  typeof v === 'object' && v !== null && typeof (v as { $sealed?: unknown }).$sealed === 'string';

/** What reads show instead of a secret value; sending it back on write keeps the stored secret. */
export const REDACTED = '********';
