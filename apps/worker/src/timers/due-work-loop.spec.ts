import { RecordedEvent, Sleeper } from '@notify/eventstore';
import { createLogger } from '@notify/logging';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { DueWorkLoop } from './due-work-loop';
import { bringsTimers } from './timer.service';

const applied = (...types: string[]) => types.map((type) => ({ type, streamId: 'run-1' }) as RecordedEvent);

describe('DueWorkLoop: woken by its read model only for what may be due sooner', () => {
  it('wakes for a new timer, not for timers cancelled or fired with runs that ended', async () => {
    let listener: ((events: readonly RecordedEvent[]) => void) | undefined;
    const runtime = {
      onApplied: (_name: string, l: (events: readonly RecordedEvent[]) => void) => {
        listener = l;
        return () => (listener = undefined);
      },
    } as unknown as ProjectionRuntime;
    const wake = jest.spyOn(Sleeper.prototype, 'wake');
    let rounds = 0;
    const loop = new DueWorkLoop(runtime, createLogger('silent', { role: 'test' }), {
      projection: 'timers',
      what: 'firing timers',
      wakeOn: bringsTimers,
      maxSleepMs: 60_000,
      round: async () => {
        rounds++;
        return false;
      },
      nextDue: async () => undefined,
    });
    try {
      loop.start();
      listener!(applied('RunCompleted', 'TimerFired', 'MessageDeliveryAttemptCompleted'));
      expect(wake).not.toHaveBeenCalled();
      listener!(applied('RunCompleted', 'TimerScheduled'));
      expect(wake).toHaveBeenCalledTimes(1);
    } finally {
      await loop.stop();
      wake.mockRestore();
    }
    expect(listener).toBeUndefined();
    expect(rounds).toBeGreaterThanOrEqual(1);
  });

  it('without wakeOn, wakes for anything applied (schedules, broadcasts)', async () => {
    let listener: ((events: readonly RecordedEvent[]) => void) | undefined;
    const runtime = { onApplied: (_n: string, l: typeof listener) => ((listener = l), () => undefined) } as unknown as ProjectionRuntime;
    const wake = jest.spyOn(Sleeper.prototype, 'wake');
    const loop = new DueWorkLoop(runtime, createLogger('silent', { role: 'test' }), {
      projection: 'schedules',
      what: 'firing schedules',
      maxSleepMs: 60_000,
      round: async () => false,
      nextDue: async () => undefined,
    });
    try {
      loop.start();
      listener!(applied('ScheduleDeleted'));
      expect(wake).toHaveBeenCalledTimes(1);
    } finally {
      await loop.stop();
      wake.mockRestore();
    }
  });
});
