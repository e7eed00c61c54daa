import type { RecipientRefT } from '@notify/contracts';

const sameRecipient = (a: RecipientRefT, b: RecipientRefT) =>
  a.type === b.type && a.id === b.id && (a.type === 'user' || a.collection === (b as { collection: string }).collection);

/**
 * Whether a cancellation naming `requested` recipients (null: all of them) applies to a run for
 * `recipient`. A run fanned out from an object to one of its subscribers belongs to the object
 * too, so cancelling for the object cancels its subscribers' runs of that trigger.
 */
export function cancellationCovers(
  requested: readonly RecipientRefT[] | null,
  recipient: RecipientRefT,
  subscribedTo: RecipientRefT | null,
): boolean {
  if (requested === null) return true;
  return requested.some((r) => sameRecipient(r, recipient) || (subscribedTo !== null && sameRecipient(r, subscribedTo)));
}
