import { waitingForOf, WaitForEventSettings } from '@notify/domain';
import type { StepContext, StepHandler, StepOutcome } from '../step-handler';

/**
 * Pauses the run until another workflow's run for the same recipient starts or completes, a
 * message of a workflow reaches a status or engagement, or the recipient is updated, matching
 * the step's conditions; or
 * until `expires_after` passes (a durable timer). `on_match` / `on_timeout` say whether the run
 * goes on or ends there (both default to continue). The match is found by the wait-for-event
 * reactor, which resumes the run with the event.
 */
export class WaitForEventStep implements StepHandler {
  readonly type = 'wait_for_event';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const settings = (ctx.step.settings ?? {}) as unknown as WaitForEventSettings;
    if (ctx.resumed) {
      const resumed = ctx.state.resumedWith;
      if (resumed?.cause === 'event_matched') {
        const output = { matched: true, event: resumed.event ?? null };
        return settings.on_match === 'halt'
          ? { flow: 'halt', status: 'ok', reason: 'wait_for_event_matched', output }
          : { flow: 'continue', status: 'ok', output };
      }
      const output = { matched: false, timed_out: true };
      return settings.on_timeout === 'halt'
        ? { flow: 'halt', status: 'ok', reason: 'wait_for_event_timed_out', output }
        : { flow: 'continue', status: 'ok', output };
    }
    const wait = waitingForOf(settings, ctx.now);
    // Waiting for something that can never arrive here would look like a timeout later; the run
    // ends now with the reason instead of going on as if the event had been seen or missed.
    if ('unsupported' in wait) return { flow: 'halt', status: 'error', reason: wait.unsupported };
    return {
      flow: 'pause',
      reason: 'wait_for_event',
      resumeAt: wait.waitingFor.expires_at ? new Date(wait.waitingFor.expires_at) : null,
      waitingFor: { ...wait.waitingFor, recipient: ctx.state.run!.recipient },
    };
  }
}
