import { ReadAllPage } from '@notify/eventstore';
import { ReadAhead } from './read-ahead';

/** A log of pages ending at 30: each read answers the ten positions after `after`. */
function fakeLog() {
  const reads: string[] = [];
  const read = async (after: string): Promise<ReadAllPage> => {
    reads.push(after);
    const from = Number(after);
    const to = Math.min(from + 10, 30);
    return { events: [], scannedTo: String(to).padStart(2, '0') };
  };
  return { reads, read };
}

describe('ReadAhead', () => {
  it('reads the page after each page while that page is being used, and serves it from there', async () => {
    const log = fakeLog();
    const ahead = new ReadAhead(log.read);
    expect((await ahead.page('00')).scannedTo).toBe('10');
    expect(log.reads).toEqual(['00', '10']); // the second read started before it was asked for
    expect((await ahead.page('10')).scannedTo).toBe('20');
    expect((await ahead.page('20')).scannedTo).toBe('30');
    expect((await ahead.page('30')).scannedTo).toBe('30'); // the end: nothing more is read ahead
    expect(log.reads).toEqual(['00', '10', '20', '30']);
    await ahead.close();
  });

  it('reads again when asked for another position than the one read ahead', async () => {
    const log = fakeLog();
    const ahead = new ReadAhead(log.read);
    await ahead.page('00');
    expect((await ahead.page('05')).scannedTo).toBe('15');
    expect(log.reads).toEqual(['00', '10', '05', '15']);
    await ahead.close();
  });

  it('reads ahead only after a page the caller deems worth it', async () => {
    const log = fakeLog();
    const ahead = new ReadAhead(log.read, (page) => page.scannedTo !== '20');
    await ahead.page('00');
    await ahead.page('10'); // read ahead after the first page
    expect(log.reads).toEqual(['00', '10']); // ... but not after this one
    expect((await ahead.page('20')).scannedTo).toBe('30');
    expect(log.reads).toEqual(['00', '10', '20', '30']);
    await ahead.close();
  });

  /** Reads that finish when the test releases them. */
  function heldLog(failAfter?: string) {
    const release: (() => void)[] = [];
    const read = async (after: string): Promise<ReadAllPage> => {
      await new Promise<void>((resolve) => release.push(resolve));
      if (after === failAfter) throw new Error(`read after ${after} failed`);
      return { events: [], scannedTo: String(Number(after) + 1) };
    };
    return { release, read };
  }

  it('reports a failed read ahead to the caller that asks for that page', async () => {
    const log = heldLog('2');
    const ahead = new ReadAhead(log.read);
    const first = ahead.page('1');
    log.release.shift()!();
    await first;
    const second = ahead.page('2'); // read ahead, still in flight
    log.release.shift()!();
    await expect(second).rejects.toThrow('read after 2 failed');
    await ahead.close();
  });

  it('closes only once the read in flight has finished', async () => {
    const log = heldLog();
    const ahead = new ReadAhead(log.read);
    const first = ahead.page('1');
    log.release.shift()!();
    await first;
    let closed = false;
    const closing = ahead.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    log.release.shift()!();
    await closing;
    expect(closed).toBe(true);
  });
});
