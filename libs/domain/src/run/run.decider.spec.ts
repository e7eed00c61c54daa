import { fold } from '../shared/decider';
import { canContinue, decideRun, RunCommand, runDecider, StepDecision } from './run.decider';
import type { RunEvent } from './run.events';

const runId = '00000000-0000-4000-8000-000000000001';
const enqueued: RunEvent = {
  type: 'RunEnqueued',
  data: {
    run_id: runId,
    workflow_run_id: '00000000-0000-4000-8000-000000000002',
    workflow_key: 'w',
    recipient: { type: 'user', id: 'ada' },
    actor: null,
    tenant: null,
    data: {},
    cancellation_key: null,
    trigger_source: { type: 'api' },
    trigger_position: '1',
    subscribed_to: null,
    enqueued_at: '2026-03-02T10:00:00.000Z',
  },
};
const paused = (reason: 'fetch_retry' | 'delay', timer: string): RunEvent => ({
  type: 'RunPaused',
  data: {
    run_id: runId,
    step_ref: 'fetch',
    reason,
    timer_id: timer,
    resume_at: '2026-03-02T10:00:05.000Z',
    waiting_for: null,
    at: '2026-03-02T10:00:00.000Z',
  },
});
const fired = (timer: string): RunEvent => ({ type: 'TimerFired', data: { timer_id: timer, fired_at: '2026-03-02T10:00:05.000Z' } });

describe('run decider', () => {
  it('counts a fetch paused for a retry as an attempt of its step, other pauses not', () => {
    const state = fold(runDecider, [enqueued, paused('fetch_retry', 't1'), fired('t1'), paused('fetch_retry', 't2'), fired('t2')]);
    expect(state.attempts).toEqual({ fetch: 2 });
    expect(canContinue(state)).toBe(true);
    expect(fold(runDecider, [enqueued, paused('delay', 't1')]).attempts).toEqual({});
  });

  it('resumes only a paused run, once', () => {
    const waiting = fold(runDecider, [enqueued, paused('delay', 't1')]);
    const resume = { type: 'Resume' as const, cause: 'event_matched' as const, batch: null, now: '2026-03-02T10:00:01.000Z' };
    const events = runDecider.decide(resume, waiting);
    expect(events).toEqual([{ type: 'RunResumed', data: expect.objectContaining({ cause: 'event_matched', step_ref: 'fetch' }) }]);
    expect(runDecider.decide(resume, runDecider.evolve(waiting, events[0]))).toEqual([]);
  });

  describe('decideRun: given the run so far, when a step decided, then these events', () => {
    const now = '2026-03-02T10:00:01.000Z';
    const step = { ref: 'inbox', type: 'in_app_feed' };
    const apply = (decision: StepDecision, resumed = false, attempt = 0): RunCommand => ({
      type: 'ApplyStep',
      step,
      resumed,
      attempt,
      decision,
      now,
    });
    const ok = (next: Extract<StepDecision, { flow: 'continue' }>['next'], data: Record<string, unknown> | null = null): StepDecision => ({
      flow: 'continue',
      status: 'ok',
      reason: null,
      output: { message_id: 'm1' },
      data,
      next,
    });
    const given = (...events: RunEvent[]) => fold(runDecider, events);

    it('records a completed step and moves the cursor to the next one', () => {
      const events = decideRun(given(enqueued), apply(ok({ path: [1], terminated: false })));
      expect(events).toEqual([
        {
          type: 'StepCompleted',
          data: {
            run_id: runId,
            step_ref: 'inbox',
            step_type: 'in_app_feed',
            at: now,
            attempt: 1,
            status: 'ok',
            reason: null,
            output: { message_id: 'm1' },
            next_path: [1],
          },
        },
      ]);
      expect(fold(runDecider, [enqueued, ...events]).path).toEqual([1]);
    });

    const lastStep = {
      step_ref: 'inbox',
      step_type: 'in_app_feed',
      at: now,
      attempt: 1,
      status: 'ok' as const,
      reason: null,
      output: { message_id: 'm1' },
      next_path: null,
    };

    it('ends the run with the last step, in one RunCompleted carrying it (ADR 0233); halts it when a branch terminates', () => {
      const last = decideRun(given(enqueued), apply(ok({ path: null, terminated: false })));
      expect(last).toEqual([
        { type: 'RunCompleted', data: { run_id: runId, outcome: 'ended', reason: null, at: now, step: lastStep, never_paused: true } },
      ]);
      const terminated = decideRun(given(enqueued), apply(ok({ path: null, terminated: true })));
      expect(terminated).toEqual([
        {
          type: 'RunCompleted',
          data: { run_id: runId, outcome: 'halted', reason: 'branch_terminated', at: now, step: lastStep, never_paused: true },
        },
      ]);
    });

    it('folds a RunCompleted carrying its last step as StepCompleted + RunCompleted (the shape older code wrote)', () => {
      const step = { ...lastStep, status: 'error' as const, reason: 'boom' };
      const compound = fold(runDecider, [
        enqueued,
        { type: 'RunCompleted', data: { run_id: runId, outcome: 'ended', reason: null, at: now, step } },
      ]);
      const separate = fold(runDecider, [
        enqueued,
        { type: 'StepCompleted', data: { run_id: runId, ...step } },
        { type: 'RunCompleted', data: { run_id: runId, outcome: 'ended', reason: null, at: now } },
      ]);
      expect(compound).toEqual(separate);
      expect(compound).toEqual(expect.objectContaining({ status: 'completed', errorCount: 1, attempts: { inbox: 1 } }));
      expect(decideRun(compound, { type: 'End', now })).toEqual([]);
    });

    it('records the data a step changed before the step itself', () => {
      const events = decideRun(given(enqueued), apply(ok({ path: [1], terminated: false }, { plan: 'pro' })));
      expect(events.map((e) => e.type)).toEqual(['RunDataUpdated', 'StepCompleted']);
      expect(fold(runDecider, [enqueued, ...events]).data).toEqual({ plan: 'pro' });
    });

    it('pauses on a timer: started, timer scheduled, paused; a resumed step does not start again', () => {
      const delay: StepDecision = { flow: 'pause', reason: 'delay', timerId: 't1', resumeAt: '2026-03-02T10:05:00.000Z', waitingFor: null };
      const events = decideRun(given(enqueued), apply(delay));
      expect(events.map((e) => e.type)).toEqual(['StepStarted', 'TimerScheduled', 'RunPaused']);
      expect(events[1].data).toEqual({ timer_id: 't1', fire_at: '2026-03-02T10:05:00.000Z', purpose: 'delay' });
      const state = fold(runDecider, [enqueued, ...events, fired('t1')]);
      expect(decideRun(state, apply({ ...delay, timerId: 't2' }, true)).map((e) => e.type)).toEqual(['TimerScheduled', 'RunPaused']);
    });

    it('records what set a pause on RunPaused, and nothing on a pause decided without inputs', () => {
      const inputs = { user_id: 'u1', pause: { reason: 'delay' as const, resume_at: '2026-03-02T10:05:00.000Z' } };
      const delay: StepDecision = { flow: 'pause', reason: 'delay', timerId: 't1', resumeAt: '2026-03-02T10:05:00.000Z', waitingFor: null };
      const paused = decideRun(given(enqueued), apply({ ...delay, inputs }))[2];
      expect(paused).toMatchObject({ type: 'RunPaused', data: { inputs } });
      expect(decideRun(given(enqueued), apply(delay))[2].data).not.toHaveProperty('inputs');
    });

    it('pauses without a timer when waiting for something else', () => {
      const wait: StepDecision = { flow: 'pause', reason: 'batch', timerId: null, resumeAt: null, waitingFor: { batch: 'b1' } };
      const [, paused] = decideRun(given(enqueued), apply(wait));
      expect(paused.data).toEqual(expect.objectContaining({ timer_id: null, resume_at: null, waiting_for: { batch: 'b1' } }));
    });

    it('halts the run with the step that halted it', () => {
      const events = decideRun(given(enqueued), apply({ flow: 'halt', status: 'ok', reason: 'throttled', output: null }));
      expect(events).toEqual([
        {
          type: 'RunCompleted',
          data: {
            run_id: runId,
            outcome: 'halted',
            reason: 'throttled',
            at: now,
            step: { ...lastStep, output: null, reason: 'throttled' },
            never_paused: true,
          },
        },
      ]);
    });

    it('decides nothing for a run that cannot continue: paused on an unfired timer, ended, cancelled', () => {
      const command = apply(ok({ path: [1], terminated: false }));
      expect(decideRun(given(enqueued, paused('delay', 't1')), command)).toEqual([]);
      const cancelled = given(enqueued, { type: 'RunCancelled', data: { run_id: runId, reason: 'x', at: now } });
      expect(decideRun(cancelled, command)).toEqual([]);
      expect(decideRun(cancelled, { type: 'End', now })).toEqual([]);
      expect(decideRun(cancelled, { type: 'Halt', reason: 'workflow_conditions_not_met', now })).toEqual([]);
    });

    it('ends or halts an active run once', () => {
      const ended = decideRun(given(enqueued), { type: 'End', now });
      expect(ended).toEqual([
        { type: 'RunCompleted', data: { run_id: runId, outcome: 'ended', reason: null, at: now, never_paused: true } },
      ]);
      expect(decideRun(given(enqueued, ...ended), { type: 'End', now })).toEqual([]);
      const halted = decideRun(given(enqueued), { type: 'Halt', reason: 'workflow_conditions_not_met', now });
      expect(halted[0].data).toEqual(expect.objectContaining({ outcome: 'halted', reason: 'workflow_conditions_not_met' }));
    });

    // ADR 0219: a decision's inputs ride on the event that records it; without any, the event keeps its earlier shape.
    const inputs = {
      user_id: 'ada',
      conditions: {
        holds: false,
        mode: 'all' as const,
        conditions: [{ variable: 'data.plan', operator: 'equal_to', argument: 'pro', value: 'free', compared_to: 'pro', result: false }],
      },
    };

    it('records the inputs a step decided from on its StepCompleted, and none when it has none', () => {
      const skipped: StepDecision = {
        flow: 'continue',
        status: 'skipped',
        reason: 'step_conditions_not_met',
        output: null,
        data: null,
        next: { path: [1], terminated: false },
        inputs,
      };
      const [completed] = decideRun(given(enqueued), apply(skipped));
      expect(completed).toEqual({ type: 'StepCompleted', data: expect.objectContaining({ status: 'skipped', inputs }) });
      const [plain] = decideRun(given(enqueued), apply(ok({ path: [1], terminated: false })));
      expect(plain.data).not.toHaveProperty('inputs');
      const halted = decideRun(given(enqueued), apply({ flow: 'halt', status: 'skipped', reason: 'throttled', output: null, inputs }));
      expect(halted).toEqual([{ type: 'RunCompleted', data: expect.objectContaining({ step: expect.objectContaining({ inputs }) }) }]);
      expect(halted[0].data).not.toHaveProperty('inputs');
    });

    it('records the workflow conditions that halted a run on its RunCompleted', () => {
      const [halted] = decideRun(given(enqueued), { type: 'Halt', reason: 'workflow_conditions_not_met', now, inputs });
      expect(halted).toEqual({
        type: 'RunCompleted',
        data: { run_id: runId, outcome: 'halted', reason: 'workflow_conditions_not_met', at: now, inputs, never_paused: true },
      });
    });

    // ADR 0257: a run's end says when the run never paused (no timer, no wait can be pending).
    it('marks the end or cancellation of a run that never paused, and not of one that did', () => {
      const pausedOnce = given(enqueued, paused('delay', 't1'), { type: 'TimerFired', data: { timer_id: 't1', fired_at: now } });
      const [endedAfterPause] = decideRun(pausedOnce, { type: 'End', now });
      expect(endedAfterPause.data).not.toHaveProperty('never_paused');
      const [lastAfterPause] = decideRun(pausedOnce, apply(ok({ path: null, terminated: false }), true));
      expect(lastAfterPause).toEqual({ type: 'RunCompleted', data: expect.not.objectContaining({ never_paused: true }) });
      const [cancelledAfterPause] = decideRun(pausedOnce, { type: 'Cancel', reason: 'x', now });
      expect(cancelledAfterPause.data).toEqual({ run_id: runId, reason: 'x', at: now });
      const [cancelledAtOnce] = decideRun(given(enqueued), { type: 'Cancel', reason: 'x', now });
      expect(cancelledAtOnce.data).toEqual({ run_id: runId, reason: 'x', at: now, never_paused: true });
    });
  });
});
