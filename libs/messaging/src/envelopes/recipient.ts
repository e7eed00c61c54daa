import { z } from 'zod';

/** A user id, or an object as {collection, id} (Knock's RecipientReference). */
export const RecipientReference = z.union([z.string(), z.object({ collection: z.string(), id: z.string() }).loose()]);
export type RecipientReference = z.infer<typeof RecipientReference>;

/**
 * The record key for everything about one recipient: `<env>:user:<id>` or
 * `<env>:object:<collection>:<id>`. Kafka hashes the key to a partition, so one recipient's
 * records keep their order, and a consumer group gives each recipient a single owner (the
 * workflow engine's scale-out uses the same key for its work topic).
 */
export function recipientKey(environment: string, recipient: RecipientReference): string {
  return typeof recipient === 'string'
    ? `${environment}:user:${recipient}`
    : `${environment}:object:${recipient.collection}:${recipient.id}`;
}
