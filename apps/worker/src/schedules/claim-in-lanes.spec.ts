import { claimInLanes } from './schedule-firing.service';

describe('claimInLanes (ADR 0248)', () => {
  /** A table of `due` rows claimed `batch` at a time; counts the claims made. */
  function table(due: number, batch: number) {
    let left = due;
    const calls = { claims: 0, inFlight: 0, most: 0 };
    const claim = async () => {
      calls.claims++;
      calls.inFlight++;
      calls.most = Math.max(calls.most, calls.inFlight);
      await Promise.resolve();
      const n = Math.min(batch, left);
      left -= n;
      calls.inFlight--;
      return n;
    };
    return { claim, calls, left: () => left };
  }

  it('makes one claim when nothing is due (an idle poll is one statement)', async () => {
    const t = table(0, 10);
    expect(await claimInLanes(t.claim, { batchSize: 10, lanes: 4, stopping: () => false })).toBe(false);
    expect(t.calls.claims).toBe(1);
  });

  it('makes one claim when less than a batch is due, and says it claimed', async () => {
    const t = table(7, 10);
    expect(await claimInLanes(t.claim, { batchSize: 10, lanes: 4, stopping: () => false })).toBe(true);
    expect(t.calls.claims).toBe(1);
    expect(t.left()).toBe(0);
  });

  it('claims a burst in parallel lanes until every lane finds less than a batch', async () => {
    const t = table(95, 10);
    expect(await claimInLanes(t.claim, { batchSize: 10, lanes: 4, stopping: () => false })).toBe(true);
    expect(t.left()).toBe(0);
    expect(t.calls.most).toBe(4);
  });

  it('stops claiming once the worker is stopping', async () => {
    const t = table(1000, 10);
    let stopping = false;
    const claim = async () => {
      const n = await t.claim();
      stopping = true;
      return n;
    };
    expect(await claimInLanes(claim, { batchSize: 10, lanes: 4, stopping: () => stopping })).toBe(true);
    expect(t.calls.claims).toBe(1);
    expect(t.left()).toBe(990);
  });
});
