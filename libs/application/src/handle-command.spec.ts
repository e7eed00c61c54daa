import { idempotencyDecider, tenantDecider } from '@notify/domain';
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
  readCalls = 0;
  conflicts = 0;
  alwaysConflict = false;

  facade(): EventStore {
    return {
      readStream: async (streamId: string) => {
        await new Promise((resolve) => setImmediate(resolve));
        this.readCalls++;
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

describe('handleCommand on an assumed state (ADR 0183)', () => {
  const now = '2026-01-01T00:00:00.000Z';
  const claim = (claimId: string, fingerprint = 'f') =>
    ({ type: 'Claim', claimId, operation: 'op', fingerprint, requestId: `r-${claimId}`, now, leaseMs: 60_000, ttlMs: 86_400_000 }) as const;
  const record = (claimId: string) =>
    ({ type: 'RecordResponse', claimId, status: 200, body: { ok: claimId }, requestId: `r-${claimId}`, now }) as const;

  it('appends to a stream assumed new without reading it, then decides on the state it left without reading again', async () => {
    const log = new SharedLog();
    const store = log.facade();
    const claimed = await handleCommand(store, 'k', idempotencyDecider, claim('a'), meta, { assume: { revision: 'no_stream' } });
    expect(claimed.events.map((e) => e.type)).toEqual(['IdempotencyKeyClaimed']);
    const recorded = await handleCommand(store, 'k', idempotencyDecider, record('a'), meta, {
      assume: { revision: claimed.append!.nextExpectedRevision, state: claimed.state },
    });
    expect(recorded.events.map((e) => e.type)).toEqual(['IdempotentResponseRecorded']);
    expect(recorded.state.response).toEqual({ status: 200, body: { ok: 'a' }, requestId: 'r-a' });
    expect(log.readCalls).toBe(0);
    expect(log.streams.get('k')!.map((e) => e.revision)).toEqual([0, 1]);
  });

  it('reads the stream and decides on what is there when it is not as assumed: nothing is written on the assumption', async () => {
    const log = new SharedLog();
    const store = log.facade();
    await handleCommand(store, 'k', idempotencyDecider, claim('a'), meta);
    await handleCommand(store, 'k', idempotencyDecider, record('a'), meta);
    // The key exists with a stored response: the repeat is answered from it, not claimed anew.
    const repeat = await handleCommand(store, 'k', idempotencyDecider, claim('b'), meta, { assume: { revision: 'no_stream' } });
    expect(repeat.events).toEqual([]);
    expect(repeat.state.response).toMatchObject({ body: { ok: 'a' } });
    expect(log.streams.get('k')).toHaveLength(2);
    expect(log.conflicts).toBe(1);
  });

  it('reads the stream where the assumed state decides nothing or refuses the command, rather than answering from the assumption', async () => {
    const log = new SharedLog();
    const store = log.facade();
    await handleCommand(store, 'k', idempotencyDecider, claim('a'), meta);
    // Assumed new: on no claim, recording a's response decides nothing; the stream has a's claim.
    const recorded = await handleCommand(store, 'k', idempotencyDecider, record('a'), meta, { assume: { revision: 'no_stream' } });
    expect(recorded.events.map((e) => e.type)).toEqual(['IdempotentResponseRecorded']);
    // Assumed: another request's claim with other parameters, which refuses this one; the stream
    // holds a's answer for these parameters, which is the answer.
    const reads = log.readCalls;
    const other = {
      claim: {
        claimId: 'x',
        operation: 'op',
        fingerprint: 'other',
        requestId: 'r-x',
        leaseUntil: now,
        expiresAt: '2026-01-02T00:00:00.000Z',
      },
      released: false,
    };
    const repeat = await handleCommand(store, 'k', idempotencyDecider, claim('b'), meta, { assume: { revision: 1, state: other } });
    expect(log.readCalls).toBe(reads + 1);
    expect(repeat.events).toEqual([]);
    expect(repeat.state.response).toMatchObject({ body: { ok: 'a' } });
    expect(log.streams.get('k')).toHaveLength(2);
  });
});
