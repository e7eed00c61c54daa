import { GroupedReads } from './grouped-reads';

/** A readMany whose statements the test answers by hand, in the order it chooses. */
function manualReads() {
  const sent: { keys: string[]; answer(found: Record<string, number>): void; fail(error: Error): void }[] = [];
  const readMany = (keys: string[]) =>
    new Promise<Map<string, number>>((resolve, reject) => {
      sent.push({ keys, answer: (found) => resolve(new Map(Object.entries(found))), fail: reject });
    });
  return { sent, readMany };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupedReads', () => {
  it('sends a read at once when none is in flight', async () => {
    const { sent, readMany } = manualReads();
    const reads = new GroupedReads(readMany);
    const a = reads.get('a');
    expect(sent.map((s) => s.keys)).toEqual([['a']]);
    sent[0].answer({ a: 1 });
    await expect(a).resolves.toBe(1);
  });

  it('groups the reads asked for while one is in flight into the next statement, each key once', async () => {
    const { sent, readMany } = manualReads();
    const reads = new GroupedReads(readMany);
    const first = reads.get('a');
    const waiting = [reads.get('b'), reads.get('a'), reads.get('c'), reads.get('b')];
    // Nothing asked for after the first statement left joins it: they wait for their own.
    expect(sent.map((s) => s.keys)).toEqual([['a']]);
    sent[0].answer({ a: 1 });
    await expect(first).resolves.toBe(1);
    await settle();
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b', 'a', 'c']]);
    sent[1].answer({ a: 10, b: 20 });
    await expect(Promise.all(waiting)).resolves.toEqual([20, 10, undefined, 20]);
    expect({ statements: reads.statements, keys: reads.keys }).toEqual({ statements: 2, keys: 4 });
  });

  it('answers a key asked for again while its statement is in flight from a later statement', async () => {
    const { sent, readMany } = manualReads();
    const reads = new GroupedReads(readMany);
    const before = reads.get('k');
    const after = reads.get('k');
    sent[0].answer({ k: 1 });
    await expect(before).resolves.toBe(1);
    await settle();
    expect(sent).toHaveLength(2);
    // The value changed between the two statements: the later request sees the change.
    sent[1].answer({ k: 2 });
    await expect(after).resolves.toBe(2);
  });

  it('keeps up to `limit` statements in flight and at most `maxKeys` keys in one', async () => {
    const { sent, readMany } = manualReads();
    const reads = new GroupedReads(readMany, { limit: 2, maxKeys: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((k) => reads.get(k));
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b']]);
    sent[0].answer({ a: 1 });
    await settle();
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b'], ['c', 'd']]);
    sent[1].answer({ b: 2 });
    await settle();
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b'], ['c', 'd'], ['e']]);
    sent[2].answer({ c: 3, d: 4 });
    sent[3].answer({ e: 5 });
    await expect(Promise.all(all)).resolves.toEqual([1, 2, 3, 4, 5]);
  });

  it('fails every read of a failed statement, and goes on with the next group', async () => {
    const { sent, readMany } = manualReads();
    const reads = new GroupedReads(readMany);
    const first = reads.get('a');
    const grouped = [reads.get('b'), reads.get('c')];
    const failure = new Error('connection lost');
    sent[0].fail(failure);
    await expect(first).rejects.toBe(failure);
    await settle();
    sent[1].fail(failure);
    await expect(Promise.all(grouped.map((p) => p.catch((e: unknown) => e)))).resolves.toEqual([failure, failure]);
    const later = reads.get('d');
    await settle();
    sent[2].answer({ d: 4 });
    await expect(later).resolves.toBe(4);
  });

  it('fails the group when readMany throws instead of rejecting', async () => {
    const reads = new GroupedReads<string, number>(() => {
      throw new Error('bad statement');
    });
    await expect(reads.get('a')).rejects.toThrow('bad statement');
    await expect(reads.get('b')).rejects.toThrow('bad statement');
  });
});
