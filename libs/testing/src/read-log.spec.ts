import type { ReadAllOptions, RecordedEvent } from '@notify/eventstore';
import { encodePosition } from '@notify/eventstore';
import { readAllWritten } from './read-log';

const pos = (n: number) => encodePosition(BigInt(n), 0n);
const event = (n: number): RecordedEvent => ({
  id: `e${n}`,
  streamId: 's',
  revision: n - 1,
  globalPosition: BigInt(n),
  position: pos(n),
  type: 'T',
  data: {},
  metadata: { environment: 'development', schema_version: 1 },
  createdAt: new Date(0),
});

/** A log of five events whose reads serve only up to `bound`, raised by each read of the test. */
function lowBoundStore(bounds: number[]) {
  const reads: (string | undefined)[] = [];
  let bound = bounds.shift()!;
  return {
    reads,
    store: {
      newestPosition: async () => pos(5),
      readAll: async (options: ReadAllOptions = {}) => {
        reads.push(options.after);
        const after = options.after ?? '';
        const events = [1, 2, 3, 4, 5]
          .filter((n) => n <= bound && pos(n) > after)
          .slice(0, 2)
          .map(event);
        const scannedTo = events.length ? events[events.length - 1].position : after;
        if (!events.length && bounds.length) bound = bounds.shift()!;
        return { events, scannedTo };
      },
    },
  };
}

describe('readAllWritten', () => {
  it('pages through the log and waits for a low visible bound to reach the newest event', async () => {
    const { store, reads } = lowBoundStore([3, 3, 5]);
    const events = await readAllWritten(store);
    expect(events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    // Pages of two; two empty reads at the low bound before it rose; never an event twice.
    expect(reads).toEqual(['', pos(2), pos(3), pos(3), pos(3)]);
  });

  it('answers an empty log at once', async () => {
    const events = await readAllWritten({ newestPosition: async () => '', readAll: async () => ({ events: [], scannedTo: '' }) });
    expect(events).toEqual([]);
  });
});
