import { checkAtLeastOnce, StreamRecord } from './kafka-stream-check';

const stored = [
  { id: 'a0', streamId: 'a', revision: 0 },
  { id: 'a1', streamId: 'a', revision: 1 },
  { id: 'b0', streamId: 'b', revision: 0 },
];
const rec = (id: string, key: string, offset: number, partition = key === 'a' ? 0 : 1, value: unknown = { id }): StreamRecord => ({
  partition,
  offset,
  key,
  headers: { 'event-id': id },
  value,
});

describe('checkAtLeastOnce', () => {
  it('accepts exactly once, and duplicates that repeat an earlier id', () => {
    expect(checkAtLeastOnce(stored, [rec('a0', 'a', 0), rec('a1', 'a', 1), rec('b0', 'b', 0)])).toEqual({ duplicates: 0 });
    expect(
      checkAtLeastOnce(stored, [
        rec('a0', 'a', 0),
        rec('a1', 'a', 1),
        rec('a0', 'a', 2),
        rec('a1', 'a', 3),
        rec('b0', 'b', 0),
        rec('b0', 'b', 1),
      ]),
    ).toEqual({ duplicates: 3 });
  });

  it.each([
    ['a lost event', [rec('a0', 'a', 0), rec('b0', 'b', 0)], 'never published'],
    ['a gap', [rec('a1', 'a', 0), rec('a0', 'a', 1), rec('b0', 'b', 0)], 'expected revision 0 next, got 1'],
    ['a key on two partitions', [rec('a0', 'a', 0), rec('a1', 'a', 1, 3), rec('b0', 'b', 0)], 'spread over partitions'],
    [
      'a duplicate that differs',
      [rec('a0', 'a', 0), rec('a1', 'a', 1), rec('a1', 'a', 2, 0, { id: 'other' }), rec('b0', 'b', 0)],
      'differs from its first copy',
    ],
    ['an unknown id', [rec('a0', 'a', 0), rec('a1', 'a', 1), rec('zz', 'a', 2), rec('b0', 'b', 0)], 'not in the log'],
    ['a wrong key', [rec('a0', 'a', 0), rec('a1', 'a', 1), rec('b0', 'a', 2)], 'published under key a'],
  ])('rejects %s', (_what, consumed, message) => {
    expect(() => checkAtLeastOnce(stored, consumed)).toThrow(message);
  });
});
