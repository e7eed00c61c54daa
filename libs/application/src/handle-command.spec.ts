import { tenantDecider } from '@notify/domain';
import { AppendResult, EventStore, EventToAppend, ExpectedRevision, RecordedEvent, WrongExpectedRevisionError } from '@notify/eventstore';
import { conflictBackoffMs, DEFAULT_COMMAND_ATTEMPTS, handleCommand } from './handle-command';

/** Each command sets a property of its own on one tenant: every one must land. */
const setKey = (key: string) => ({
  type: 'SetTenant' as const,
  tenantId: 't',
  properties: { [key]: true },
  now: '2026-01-01T00:00:00.000Z',
});
const keysIn = (events: RecordedEvent[]) => events.flatMap((e) => Object.keys((e.data as { properties: object }).properties));

/** One shared log; each `facade()` is what one process's store would be. Reads yield to the event loop, so racers interleave. */
class SharedLog {
  readonly streams = new Map<string, RecordedEvent[]>();
  appendCalls = 0;
  conflicts = 0;
  alwaysConflict = false;

  facade(): EventStore {
    return {
      readStream: async (streamId: string) => {
        await new Promise((resolve) => setImmediate(resolve));
        return [...(this.streams.get(streamId) ?? [])];
      },
      append: async (streamId: string, events: readonly EventToAppend[], options?: { expectedRevision?: ExpectedRevision }) => {
        await new Promise((resolve) => setImmediate(resolve));
        this.appendCalls++;
        const stream = this.streams.get(streamId) ?? [];
        const actual = stream.length ? stream.length - 1 : 'no_stream';
        if (this.alwaysConflict || actual !== options?.expectedRevision) {
          this.conflicts++;
          throw new WrongExpectedRevisionError(streamId, options?.expectedRevision ?? 'any', actual);
        }
        for (const e of events)
          stream.push({
            ...e,
            streamId,
            revision: stream.length,
            globalPosition: 0n,
            position: '',
            createdAt: new Date(),
          } as RecordedEvent);
        this.streams.set(streamId, stream);
        return { streamId, nextExpectedRevision: stream.length - 1, position: '', globalPosition: 0n } satisfies AppendResult;
      },
    } as unknown as EventStore;
  }
}

const meta = { environment: 'test' };

describe('handleCommand under contention', () => {
  it('decides 50 concurrent commands on one stream of one store one after the other: every one appended, none lost to a conflict', async () => {
    const log = new SharedLog();
    const store = log.facade();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => handleCommand(store, 's', tenantDecider, setKey(`k${i}`), meta)),
    );
    expect(outcomes.every((o) => o.events.length === 1)).toBe(true);
    expect(log.streams.get('s')!.map((e) => e.revision)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(log.conflicts).toBe(0);
  });

  it('retries writers of other processes (other store instances) on the new state until each is appended', async () => {
    const log = new SharedLog();
    const processes = [log.facade(), log.facade(), log.facade(), log.facade(), log.facade()];
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => handleCommand(processes[i % processes.length], 's', tenantDecider, setKey(`k${i}`), meta)),
    );
    expect(outcomes.every((o) => o.events.length === 1)).toBe(true);
    expect(new Set(keysIn(log.streams.get('s')!)).size).toBe(40);
    expect(log.conflicts).toBeGreaterThan(0);
  });

  it('gives up after a bounded number of rounds with the revision conflict, and the next command on the stream still runs', async () => {
    const log = new SharedLog();
    const store = log.facade();
    log.alwaysConflict = true;
    await expect(handleCommand(store, 's', tenantDecider, setKey('a'), meta)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(log.appendCalls).toBe(DEFAULT_COMMAND_ATTEMPTS);
    log.alwaysConflict = false;
    await expect(handleCommand(store, 's', tenantDecider, setKey('b'), meta)).resolves.toMatchObject({
      events: [{ data: { properties: { b: true } } }],
    });
  });

  it('waits a jittered, exponentially growing and capped time between rounds', () => {
    expect(conflictBackoffMs(1, () => 0)).toBe(0);
    expect(conflictBackoffMs(1, () => 1)).toBe(4);
    expect(conflictBackoffMs(3, () => 1)).toBe(16);
    expect(conflictBackoffMs(20, () => 1)).toBe(100);
    expect(conflictBackoffMs(20, () => 0.5)).toBe(50);
  });
});
