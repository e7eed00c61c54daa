import { runEventView, runStatusAfter } from './run-event-view';

const RUN = '6f1c1b9e-5a4f-4c39-9f1e-1d2b3c4d5e6f';

describe('run history entries', () => {
  it('shows a channel step that created a message as message_enqueued with its channel type and message id', () => {
    const view = runEventView('StepCompleted', {
      run_id: RUN,
      step_ref: 'email_1',
      step_type: 'email',
      status: 'ok',
      reason: null,
      output: { message_id: 'm-1', channel_id: 'c-1', channel_type: 'email', delivery: 'provider' },
      attempt: 1,
      next_path: [1],
    });
    expect(view).toEqual({
      event: 'message_enqueued',
      status: 'ok',
      step_ref: 'email_1',
      step_type: 'email',
      attempt: 1,
      data: { channel_type: 'email', message_id: 'm-1', channel_id: 'c-1' },
    });
  });

  it('records skips with their reason and failures as errors with their attempt', () => {
    expect(
      runEventView('StepCompleted', {
        step_ref: 's',
        step_type: 'sms',
        status: 'skipped',
        reason: 'preference:channel_type',
        output: { source: 'user' },
        attempt: 1,
      }),
    ).toEqual({
      event: 'step_skipped',
      status: 'ok',
      step_ref: 's',
      step_type: 'sms',
      attempt: 1,
      data: { source: 'user', reason: 'preference:channel_type' },
    });
    expect(
      runEventView('StepCompleted', { step_ref: 'f', step_type: 'fetch', status: 'error', reason: 'http_500', output: null, attempt: 3 }),
    ).toMatchObject({
      event: 'step_failed',
      status: 'error',
      attempt: 3,
      data: { reason: 'http_500' },
    });
  });

  it('keeps only the size of a batch a step carried, not every activity', () => {
    const activities = Array.from({ length: 500 }, (_, i) => ({ id: `a${i}` }));
    const view = runEventView('StepCompleted', {
      step_ref: 'b',
      step_type: 'batch',
      status: 'ok',
      reason: null,
      output: { batch_role: 'owner', batch: { activities, actors: [], total_activities: 500, total_actors: 0 } },
      attempt: 1,
    });
    expect(view?.data).toEqual({ batch_role: 'owner', batch: { total_activities: 500, total_actors: 0 } });
  });

  it('names pauses, resumptions, cancellation, halts and completion', () => {
    expect(
      runEventView('RunPaused', {
        step_ref: 'wait',
        reason: 'delay',
        timer_id: 't',
        resume_at: '2030-01-01T00:00:00.000Z',
        waiting_for: null,
      }),
    ).toMatchObject({
      event: 'run_paused',
      step_ref: 'wait',
      data: { reason: 'delay', resume_at: '2030-01-01T00:00:00.000Z' },
    });
    expect(runEventView('RunResumed', { step_ref: 'b', cause: 'batch_closed' })?.event).toBe('run_resumed');
    expect(runEventView('RunCancelled', { reason: 'cancellation_requested' })).toMatchObject({
      event: 'run_cancelled',
      data: { reason: 'cancellation_requested' },
    });
    expect(runEventView('RunCompleted', { outcome: 'halted', reason: 'workflow_conditions_not_met' })).toMatchObject({
      event: 'run_halted',
      data: { reason: 'workflow_conditions_not_met' },
    });
    expect(runEventView('RunCompleted', { outcome: 'ended', reason: null })?.event).toBe('run_completed');
    expect(runEventView('TimerScheduled', { timer_id: 't' })).toBeNull();
  });

  it('moves the status as the run decider does', () => {
    expect(['RunEnqueued', 'StepStarted', 'RunPaused', 'TimerFired', 'StepCompleted', 'RunCompleted'].map(runStatusAfter)).toEqual([
      'queued',
      'processing',
      'paused',
      null,
      'processing',
      'completed',
    ]);
    expect(runStatusAfter('RunCancelled')).toBe('cancelled');
    expect(runStatusAfter('RunDataUpdated')).toBeNull();
  });
});
