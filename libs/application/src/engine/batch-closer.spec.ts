import { batchDecider, BatchEvent, BatchPolicy } from '@notify/domain';
import type { EventStore, EventToAppend, RecordedEvent } from '@notify/eventstore';
import { BatchCloser } from './batch-closer';

const environment = 'development';
const streamId = 'batch-development-digest-u1';
const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const policy: BatchPolicy = {
  mode: 'accumulate',
  windowType: 'fixed',
  windowMs: 60_000,
  untilAt: null,
  extensionLimitMs: null,
  maxItems: null,
};

/** A batch stream holding one open window (opened at t(0), closing at t(60)) and an append log. */
function openBatch() {
  const events: BatchEvent[] = batchDecider.decide(
    {
      type: 'AddItem',
      runId: '00000000-0000-4000-8000-000000000001',
      activity: { id: 'a1', actor: null, data: { n: 1 }, inserted_at: t(0) },
      userId: 'u1',
      policy,
      now: t(0),
      dueAt: t(0),
      newBatchId: '00000000-0000-4000-8000-000000000900',
      newTimerId: (at) => `timer@${at}`,
    },
    batchDecider.initialState(),
  );
  const recorded = events.map(
    (e, n) =>
      ({
        id: `e${n}`,
        type: e.type,
        streamId,
        revision: n,
        globalPosition: BigInt(n + 1),
        position: String(n + 1).padStart(12, '0'),
        data: e.data,
        metadata: { environment, schema_version: 1 },
        createdAt: new Date(t(0)),
      }) as RecordedEvent,
  );
  const appended: EventToAppend[] = [];
  const store = {
    async readStream(id: string) {
      return id === streamId ? recorded : [];
    },
    async append(_id: string, batch: readonly EventToAppend[]) {
      appended.push(...batch);
      return { nextRevision: recorded.length + batch.length - 1, position: '000000000099' };
    },
  } as unknown as EventStore;
  return { store, appended };
}

const timerFired = (timerId: string, firedAt: string) =>
  ({
    id: 'fired-1',
    type: 'TimerFired',
    streamId,
    revision: 2,
    globalPosition: 10n,
    position: '000000000010',
    data: { timer_id: timerId, fired_at: firedAt },
    metadata: { environment, schema_version: 1 },
    createdAt: new Date(),
  }) as RecordedEvent;

describe('BatchCloser', () => {
  it('closes a window at the time its timer fired (the timer clock), not at the time it handles the firing', async () => {
    const { store, appended } = openBatch();
    // The timer clock was moved well past the window's end; the system clock is elsewhere.
    const firedAt = t(450);
    await new BatchCloser(store).handle(timerFired(`timer@${t(60)}`, firedAt));
    expect(appended.map((e) => e.type)).toEqual(['BatchClosed']);
    expect(appended[0].data).toMatchObject({ reason: 'window', closed_at: firedAt, total_activities: 1 });
  });

  it("ignores a timer that is not the open window's", async () => {
    const { store, appended } = openBatch();
    await new BatchCloser(store).handle(timerFired('timer@elsewhere', t(450)));
    expect(appended).toEqual([]);
  });
});
