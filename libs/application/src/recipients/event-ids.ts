import { uuidV5 as uuidv5 } from '@notify/contracts';

const NAMESPACE = '2c7c6f52-3a9e-4b8e-9a51-6f0e1d9b7c11';

/** uuid v5 of a seed: the same work always gets the same id. */
export const deterministicId = (seed: string) => uuidv5(seed, NAMESPACE);

/** The eventId option of handleCommand for one stream, when a seed is given. */
export function eventIdsFor(seed: string | undefined, streamId: string) {
  return seed === undefined ? undefined : (_event: unknown, index: number) => deterministicId(`${seed}:${streamId}:${index}`);
}
