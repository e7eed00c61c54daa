import { z } from 'zod';
import { RecipientId } from './common';

/** Collections of objects follow the same rules as ids. */
export const CollectionName = RecipientId;

/** Who a preference set, channel data or subscription belongs to, as events record it. */
export const RecipientRef = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), id: z.string() }),
  z.object({ type: z.literal('object'), collection: z.string(), id: z.string() }),
]);
export type RecipientRefT = z.infer<typeof RecipientRef>;

/** How the API names a recipient: a user id, or `{id, collection}` for an object. */
export const RecipientReference = z.union([RecipientId, z.strictObject({ id: RecipientId, collection: CollectionName })]);
export type RecipientReferenceT = z.infer<typeof RecipientReference>;

export function toRecipientRef(reference: RecipientReferenceT): RecipientRefT {
  return typeof reference === 'string'
    ? { type: 'user', id: reference }
    : { type: 'object', collection: reference.collection, id: reference.id };
}

export function recipientLabel(ref: RecipientRefT): string {
  return ref.type === 'user' ? ref.id : `${ref.collection}/${ref.id}`;
}
