import { RecipientReferenceT, RecipientRequestT } from '@notify/contracts';

/** How a recipient is named in `x-ratelimited-recipient-ids`: a user id, or collection:id for an object. */
export function recipientLabelOf(recipient: RecipientRequestT | RecipientReferenceT): string {
  if (typeof recipient === 'string') return recipient;
  return 'collection' in recipient && typeof recipient.collection === 'string' ? `${recipient.collection}:${recipient.id}` : recipient.id;
}
