import { RecipientRefT } from '@notify/contracts';

/**
 * Read models key a recipient by three columns: type, collection ('' for users) and id.
 * Shared by the preference, channel data and subscription read models.
 */
export function recipientColumns(ref: RecipientRefT): [string, string, string] {
  return ref.type === 'user' ? ['user', '', ref.id] : ['object', ref.collection, ref.id];
}

export function recipientFromColumns(type: string, collection: string, id: string): RecipientRefT {
  return type === 'user' ? { type: 'user', id } : { type: 'object', collection, id };
}
