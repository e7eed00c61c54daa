import { AppendResult } from '@notify/eventstore';
import { ReadYourWrites } from '@notify/platform';

/** Waits until the read models show every given outcome (in order; later ones are further on). */
export async function settleAll(
  consistency: ReadYourWrites,
  outcomes: readonly { append?: AppendResult; events: readonly { type: string }[] }[],
): Promise<void> {
  for (const outcome of outcomes) await consistency.settle(outcome.append, outcome.events);
}
