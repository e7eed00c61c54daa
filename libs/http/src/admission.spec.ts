import { AdmissionClock, AdmissionController, Refusal } from './admission';

/** A clock whose time moves only when the test says so; timers fire as it passes them. */
class FakeClock implements AdmissionClock {
  private time = 0;
  private timers: { at: number; fire: () => void; id: number }[] = [];
  private nextId = 0;

  now(): number {
    return this.time;
  }

  setTimer(fire: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, fire, id });
    return id;
  }

  clearTimer(timer: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== timer);
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fire();
    }
    this.time = until;
  }

  get pending(): number {
    return this.timers.length;
  }
}

type Outcome = 'admitted' | Refusal | 'waiting';

describe('AdmissionController', () => {
  let clock: FakeClock;
  let controller: AdmissionController;
  const request = () => {
    const r = { outcome: 'waiting' as Outcome };
    controller.acquire((admitted: boolean, why?: Refusal) => (r.outcome = admitted ? 'admitted' : why!));
    return r;
  };

  beforeEach(() => {
    clock = new FakeClock();
    controller = new AdmissionController({ maxInFlight: 2, maxQueued: 2, queueTimeoutMs: 1000 }, clock);
  });

  it('admits up to the in-flight limit at once, without waiting', () => {
    expect([request().outcome, request().outcome]).toEqual(['admitted', 'admitted']);
    expect(controller.stats()).toMatchObject({ inFlight: 2, queued: 0, admitted: 2 });
  });

  it('queues the next requests and hands a freed place to the one that waited longest', () => {
    request();
    request();
    const first = request();
    const second = request();
    expect([first.outcome, second.outcome]).toEqual(['waiting', 'waiting']);
    clock.advance(300);
    controller.release();
    expect([first.outcome, second.outcome]).toEqual(['admitted', 'waiting']);
    expect(controller.stats()).toMatchObject({ inFlight: 2, queued: 1, admitted: 3, longestWaitMs: 300 });
    controller.release();
    expect(second.outcome).toBe('admitted');
    expect(clock.pending).toBe(0); // the timers of admitted waiters are cancelled
    // The peaks stay where the bounds put them, after the queue has drained.
    expect(controller.stats()).toMatchObject({ queued: 0, peakInFlight: 2, peakQueued: 2 });
  });

  it('refuses at once when the queue is full', () => {
    for (let i = 0; i < 4; i++) request();
    const refused = request();
    expect(refused.outcome).toBe('queue_full');
    expect(controller.stats()).toMatchObject({ inFlight: 2, queued: 2, refused: { queue_full: 1, queue_timeout: 0 } });
  });

  it('refuses a queued request when it has waited the queue timeout, and never admits it later', () => {
    request();
    request();
    const early = request();
    clock.advance(400);
    const late = request();
    clock.advance(599);
    expect([early.outcome, late.outcome]).toEqual(['waiting', 'waiting']);
    clock.advance(1);
    expect([early.outcome, late.outcome]).toEqual(['queue_timeout', 'waiting']);
    controller.release();
    expect(late.outcome).toBe('admitted');
    expect(early.outcome).toBe('queue_timeout');
    expect(controller.stats()).toMatchObject({ inFlight: 2, queued: 0, refused: { queue_full: 0, queue_timeout: 1 } });
  });

  it('gives a place back when nobody waits, so the next request is admitted at once', () => {
    request();
    request();
    controller.release();
    expect(controller.stats().inFlight).toBe(1);
    expect(request().outcome).toBe('admitted');
    controller.release();
    controller.release();
    expect(controller.stats()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  it('with no queue, refuses everything beyond the in-flight limit', () => {
    controller = new AdmissionController({ maxInFlight: 1, maxQueued: 0, queueTimeoutMs: 1000 }, clock);
    expect([request().outcome, request().outcome]).toEqual(['admitted', 'queue_full']);
    expect(clock.pending).toBe(0);
  });
});
