import { fold } from '../shared/decider';
import { canContinue, runDecider } from './run.decider';
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
});
