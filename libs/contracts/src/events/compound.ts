import { uuidV5 as uuidv5 } from '../uuid-v5';

/**
 * Compound events (ADR 0233). To write fewer log entries per run, one entry stands for two of the
 * fine-grained events older code wrote separately:
 *
 * - `MessageCreated` with `delivered_at` is `MessageCreated` followed by `MessageDelivered`;
 * - `RunCompleted` with `step` is the run's last `StepCompleted` followed by `RunCompleted`.
 *
 * Readers that report or project events one by one expand an entry into its parts here, so a log
 * written either way reads the same. Each part has an index (its order within the entry); the part
 * that has the entry's own type keeps the entry's id, the other gets an id derived from it.
 */
export interface EventPart {
  type: string;
  data: Record<string, unknown>;
  /** 0, 1, ...: the part's order within its log entry. */
  part: number;
  /** Whether this part is the entry's own type (it keeps the entry's id). */
  primary: boolean;
}

const PART_NAMESPACE = '3d8f6a52-0c1b-4e7a-b9d4-6f2e8a1c5b37';

/** The id of part `part` of log entry `eventId` that is not the entry's own type: derived, so every reader derives the same one. */
export const partEventId = (eventId: string, part: number) => uuidv5(`${eventId}:${part}`, PART_NAMESPACE);

/** The parts a log entry stands for, in order: itself alone unless it is a compound event. */
export function eventParts(type: string, data: Record<string, unknown>): EventPart[] {
  if (type === 'MessageCreated' && typeof data.delivered_at === 'string') {
    const { delivered_at: at, ...created } = data;
    return [
      { type, data: created, part: 0, primary: true },
      { type: 'MessageDelivered', data: { message_id: data.message_id, at }, part: 1, primary: false },
    ];
  }
  if (type === 'RunCompleted' && data.step && typeof data.step === 'object') {
    const { step, ...completed } = data;
    return [
      { type: 'StepCompleted', data: { run_id: data.run_id, ...(step as Record<string, unknown>) }, part: 0, primary: false },
      { type, data: completed, part: 1, primary: true },
    ];
  }
  return [{ type, data, part: 0, primary: true }];
}

/** Whether a log entry stands for more than one event. */
export const isCompound = (type: string, data: Record<string, unknown>) =>
  (type === 'MessageCreated' && typeof data.delivered_at === 'string') ||
  (type === 'RunCompleted' && !!data.step && typeof data.step === 'object');

/**
 * A recorded entry as the events it stands for, each a copy of the entry with its part's type,
 * data and id (see eventParts) and `part` set.
 */
export function expandRecorded<E extends { id: string; type: string; data: unknown }>(event: E): (E & { part: number })[] {
  const data = event.data as Record<string, unknown>;
  if (!isCompound(event.type, data)) return [{ ...event, part: 0 }];
  return eventParts(event.type, data).map((p) => ({
    ...event,
    id: p.primary ? event.id : partEventId(event.id, p.part),
    type: p.type,
    data: p.data as E['data'],
    part: p.part,
  }));
}

/** Event types a reader filtering on `types` must also read to see them inside compound entries. */
export function compoundCarriers(types: readonly string[]): string[] {
  const out = new Set(types);
  if (types.includes('MessageDelivered')) out.add('MessageCreated');
  if (types.includes('StepCompleted')) out.add('RunCompleted');
  return [...out];
}
