import { fold } from '../shared/decider';
import {
  BatchEvent,
  batchDecider,
  BatchPolicy,
  explainBatchAdd,
  explainThrottle,
  frequencyDecider,
  throttleDecider,
} from './batch.decider';

const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const activity = (n: number, actor: string | null = `actor-${n}`) => ({
  id: `a${n}`,
  actor: actor === null ? null : { type: 'user' as const, id: actor },
  data: { n },
  inserted_at: t(n),
});
const run = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const accumulate: BatchPolicy = {
  mode: 'accumulate',
  windowType: 'fixed',
  windowMs: 60_000,
  untilAt: null,
  extensionLimitMs: null,
  maxItems: null,
};

/** Applies AddItem commands in order and returns every event. */
function add(
  policy: BatchPolicy,
  items: [run: number, second: number, actor?: string | null, due?: number][],
  history: BatchEvent[] = [],
  userId: string | null = null,
): BatchEvent[] {
  const events = [...history];
  for (const [r, s, actor, due] of items) {
    const state = fold(batchDecider, events);
    events.push(
      ...batchDecider.decide(
        {
          type: 'AddItem',
          runId: run(r),
          activity: activity(r, actor === undefined ? `actor-${r}` : actor),
          userId,
          policy,
          now: t(s),
          dueAt: t(due ?? s),
          newBatchId: run(900 + r),
          newTimerId: (at) => `timer@${at}`,
        },
        state,
      ),
    );
  }
  return events;
}

const roles = (events: BatchEvent[]) => events.filter((e) => e.type === 'BatchItemAdded').map((e) => (e.data as { role: string }).role);

describe('batch decider', () => {
  describe('sealing for the recipient (ADR 0221)', () => {
    it("records the user a batch is for on its items and on its close (a window's or max_items'), and nothing for an object", () => {
      const events = add(
        { ...accumulate, maxItems: 2 },
        [
          [1, 0],
          [2, 1],
        ],
        [],
        'ada',
      );
      const sealed = events.filter((e) => e.type === 'BatchItemAdded' || e.type === 'BatchClosed');
      expect(sealed.map((e) => [e.type, (e.data as { user_id?: string }).user_id])).toEqual([
        ['BatchItemAdded', 'ada'],
        ['BatchItemAdded', 'ada'],
        ['BatchClosed', 'ada'],
      ]);
      const open = add(accumulate, [[1, 0]], [], 'ada');
      const [closed] = batchDecider.decide({ type: 'Close', timerId: `timer@${t(60)}`, now: t(60) }, fold(batchDecider, open));
      expect(closed.data).toMatchObject({ user_id: 'ada' });
      expect(add(accumulate, [[1, 0]]).every((e) => !('user_id' in e.data))).toBe(true);
    });

    it('closes a batch whose activities were erased without inventing actors', () => {
      const open = add(accumulate, [[1, 0]], [], 'ada').map((e) =>
        e.type === 'BatchItemAdded' ? { ...e, data: { ...e.data, activity: { $erased: true } as never } } : e,
      );
      const [closed] = batchDecider.decide({ type: 'Close', timerId: `timer@${t(60)}`, now: t(60) }, fold(batchDecider, open));
      expect(closed.data).toMatchObject({ actors: [], total_actors: 0, total_activities: 1 });
    });
  });

  describe('windows by when the run was due (its trigger accepted), not when it got here', () => {
    it('given a window opened by a run accepted at 0 that got here at 30, it closes 60 s after the accept', () => {
      const [opened] = add(accumulate, [[1, 30, undefined, 0]]);
      expect(opened.data).toMatchObject({ opened_at: t(0), closes_at: t(60) });
    });

    it('given an open window, when a run accepted inside it arrives after its end, then it joins that window', () => {
      const events = add(accumulate, [
        [1, 0],
        [2, 75, undefined, 50],
      ]);
      expect(events.filter((e) => e.type === 'BatchOpened')).toHaveLength(1);
      expect(roles(events)).toEqual(['owner', 'joined']);
    });

    it('given an open window whose timer was not handled yet, when a run accepted after its end arrives, then the window closes without it and it opens the next', () => {
      const events = add(accumulate, [
        [1, 0],
        [2, 10],
        [3, 70, undefined, 65],
      ]);
      expect(events.map((e) => e.type)).toEqual([
        'BatchOpened',
        'BatchItemAdded',
        'TimerScheduled',
        'BatchItemAdded',
        'BatchClosed',
        'BatchOpened',
        'BatchItemAdded',
        'TimerScheduled',
      ]);
      const closed = events[4].data as { owner_run_id: string; total_activities: number; reason: string };
      expect(closed).toMatchObject({ owner_run_id: run(1), total_activities: 2, reason: 'window' });
      expect(events[5].data).toMatchObject({ owner_run_id: run(3), opened_at: t(65), closes_at: t(125) });
      // The first window's timer, handled late, no longer closes anything.
      expect(batchDecider.decide({ type: 'Close', timerId: `timer@${t(60)}`, now: t(71) }, fold(batchDecider, events))).toEqual([]);
    });
  });

  it('accumulate: the first run opens and owns the batch, later runs join it', () => {
    const events = add(accumulate, [
      [1, 0],
      [2, 10],
      [3, 20],
    ]);
    expect(events[0]).toMatchObject({
      type: 'BatchOpened',
      data: { owner_run_id: run(1), leading_run_id: null, closes_at: t(60), timer_id: `timer@${t(60)}` },
    });
    expect(roles(events)).toEqual(['owner', 'joined', 'joined']);
  });

  it('closes on its own timer with every activity and the distinct actors', () => {
    const events = add(accumulate, [
      [1, 0],
      [2, 10, 'actor-1'],
      [3, 20, null],
    ]);
    const state = fold(batchDecider, events);
    expect(batchDecider.decide({ type: 'Close', timerId: 'stale', now: t(60) }, state)).toEqual([]);
    const [closed] = batchDecider.decide({ type: 'Close', timerId: `timer@${t(60)}`, now: t(60) }, state);
    expect(closed).toMatchObject({
      type: 'BatchClosed',
      data: { owner_run_id: run(1), reason: 'window', total_activities: 3, total_actors: 1, actors: [{ type: 'user', id: 'actor-1' }] },
    });
  });

  it('a run added twice (a retry) is not added again', () => {
    const events = add(accumulate, [
      [1, 0],
      [2, 5],
    ]);
    expect(add(accumulate, [[2, 6]], events).length).toBe(events.length);
  });

  it('opens a new batch after the previous one closed', () => {
    const first = add(accumulate, [[1, 0]]);
    const closed = [...first, ...batchDecider.decide({ type: 'Close', timerId: `timer@${t(60)}`, now: t(60) }, fold(batchDecider, first))];
    const next = add(accumulate, [[2, 70]], closed).slice(closed.length);
    expect(next[0]).toMatchObject({ type: 'BatchOpened', data: { owner_run_id: run(2), closes_at: t(130) } });
  });

  it('flush_leading: the first run is sent at once, the next one owns what accumulates', () => {
    const events = add({ ...accumulate, mode: 'flush_leading' }, [
      [1, 0],
      [2, 10],
      [3, 20],
    ]);
    expect(events[0]).toMatchObject({ type: 'BatchOpened', data: { owner_run_id: null, leading_run_id: run(1) } });
    expect(roles(events)).toEqual(['leading', 'owner', 'joined']);
    const [closed] = batchDecider.decide({ type: 'Close', timerId: `timer@${t(60)}`, now: t(60) }, fold(batchDecider, events));
    expect(closed.data).toMatchObject({ owner_run_id: run(2), total_activities: 2 });
  });

  it('sliding: each item pushes the window out, never past the extension limit', () => {
    const sliding: BatchPolicy = { ...accumulate, windowType: 'sliding', windowMs: 30_000, extensionLimitMs: 50_000 };
    const events = add(sliding, [
      [1, 0],
      [2, 10],
      [3, 25],
    ]);
    const extensions = events.filter((e) => e.type === 'BatchWindowExtended').map((e) => (e.data as { closes_at: string }).closes_at);
    expect(extensions).toEqual([t(40), t(50)]);
    expect(fold(batchDecider, events).open?.timerId).toBe(`timer@${t(50)}`);
  });

  it('closes early when the items limit is reached', () => {
    const events = add({ ...accumulate, maxItems: 3 }, [
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(events[events.length - 1]).toMatchObject({
      type: 'BatchClosed',
      data: { reason: 'max_items', total_activities: 3, owner_run_id: run(1) },
    });
    expect(fold(batchDecider, events).open).toBeUndefined();
  });

  it('closes at the time from batch_until_field_path', () => {
    const events = add({ ...accumulate, windowMs: null, untilAt: t(45) }, [
      [1, 0],
      [2, 10],
    ]);
    expect(events[0].data).toMatchObject({ closes_at: t(45) });
    expect(events.some((e) => e.type === 'BatchWindowExtended')).toBe(false);
  });
});

describe('throttle decider', () => {
  it('lets `limit` runs through per window and limits the rest, deciding each run once', () => {
    let events: ReturnType<typeof throttleDecider.decide> = [];
    const pass = (r: number, s: number) => {
      const out = throttleDecider.decide(
        { type: 'Pass', runId: run(r), windowMs: 60_000, limit: 2, now: t(s) },
        fold(throttleDecider, events),
      );
      events = [...events, ...out];
      return out.map((e) => e.type);
    };
    expect(pass(1, 0)).toEqual(['ThrottlePassed']);
    expect(pass(2, 10)).toEqual(['ThrottlePassed']);
    expect(pass(3, 20)).toEqual(['ThrottleLimited']);
    expect(pass(3, 21)).toEqual([]);
    expect(pass(4, 61)).toEqual(['ThrottlePassed']); // the first pass left the window
  });
});

describe('what a throttle decision saw (ADR 0239)', () => {
  const pass = (r: number, s: number) => ({ type: 'Pass' as const, runId: run(r), windowMs: 60_000, limit: 2, now: t(s) });
  it('counts the passes in the window it decided by, and keeps the recorded result of a run decided before', () => {
    let events: ReturnType<typeof throttleDecider.decide> = [];
    const traces = [pass(1, 0), pass(2, 10), pass(3, 20), pass(3, 21), pass(4, 61)].map((command) => {
      const state = fold(throttleDecider, events);
      events = [...events, ...throttleDecider.decide(command, state)];
      return explainThrottle(state, command, 'default');
    });
    expect(traces.map((x) => [x.passes_in_window, x.result, x.repeated ?? false])).toEqual([
      [0, 'passed', false],
      [1, 'passed', false],
      [2, 'limited', false],
      [2, 'limited', true],
      [1, 'passed', false],
    ]);
    expect(traces[2]).toEqual({
      key: 'default',
      limit: 2,
      window_ms: 60_000,
      window_start: new Date(Date.parse(t(20)) - 60_000).toISOString(),
      passes_in_window: 2,
      result: 'limited',
    });
  });
});

describe('what a batch decision saw (ADR 0239)', () => {
  function addAndExplain(policy: BatchPolicy, history: BatchEvent[], r: number, s: number) {
    const state = fold(batchDecider, history);
    const command = {
      type: 'AddItem' as const,
      runId: run(r),
      activity: activity(r),
      userId: null,
      policy,
      now: t(s),
      dueAt: t(s),
      newBatchId: `b${r}`,
      newTimerId: (at: string) => `timer-${at}`,
    };
    const events = batchDecider.decide(command, state);
    return { events: [...history, ...events], trace: explainBatchAdd(state, command, events, 'k') };
  }

  it('gives the window a run opened, the one a later run joined (extended when sliding), and a close by the items limit', () => {
    const sliding: BatchPolicy = { ...accumulate, windowType: 'sliding', extensionLimitMs: 300_000, maxItems: 3 };
    const first = addAndExplain(sliding, [], 1, 0);
    expect(first.trace).toEqual({
      key: 'k',
      batch_id: 'b1',
      role: 'owner',
      mode: 'accumulate',
      window_type: 'sliding',
      opened_at: t(0),
      closes_at: t(60),
      extend_until: t(300),
      items: 1,
      max_items: 3,
      closed: null,
    });
    const second = addAndExplain(sliding, first.events, 2, 30);
    expect(second.trace).toMatchObject({ batch_id: 'b1', role: 'joined', items: 2, closes_at: t(90), closed: null });
    const third = addAndExplain(sliding, second.events, 3, 40);
    expect(third.trace).toMatchObject({ batch_id: 'b1', role: 'joined', items: 3, closed: 'max_items' });
    // Decided before: nothing new, the batch still open shows it.
    expect(addAndExplain(sliding, second.events, 2, 45).trace).toMatchObject({ batch_id: 'b1', role: 'joined', items: 2 });
  });

  it('puts a run due after the open window into the next batch, not the one that closed', () => {
    const first = addAndExplain(accumulate, [], 1, 0);
    const late = addAndExplain(accumulate, first.events, 2, 61);
    expect(late.events.map((e) => e.type)).toContain('BatchClosed');
    expect(late.trace).toMatchObject({ batch_id: 'b2', role: 'owner', items: 1, opened_at: t(61), closed: null });
  });
});

describe('frequency decider', () => {
  it('lets the first run claim the recipient and nobody after', () => {
    const claim = { type: 'Claim' as const, runId: run(1), workflowRunId: run(2), now: t(0) };
    const events = frequencyDecider.decide(claim, fold(frequencyDecider, []));
    expect(events).toHaveLength(1);
    expect(frequencyDecider.decide({ ...claim, runId: run(3) }, fold(frequencyDecider, events))).toEqual([]);
  });
});
