import type { Admin } from 'kafkajs';
import { topicEndOffsets } from './topic-admin';

/** An admin whose fetchTopicOffsets answers with the given outcomes in turn. */
function adminAnswering(...outcomes: (Error | { partition: number; high: string }[])[]) {
  const calls = { offsets: 0, metadata: 0 };
  const admin = {
    fetchTopicOffsets: async () => {
      const outcome = outcomes[calls.offsets++];
      if (outcome instanceof Error) throw outcome;
      return outcome.map((p) => ({ ...p, offset: p.high, low: '0' }));
    },
    fetchTopicMetadata: async () => {
      calls.metadata++;
      return { topics: [] };
    },
  } as unknown as Admin;
  return { admin, calls };
}

const notLeader = () => Object.assign(new Error('This server is not the leader for that topic-partition'), { retriable: true });

describe('topicEndOffsets', () => {
  it('answers each partition end offset', async () => {
    const { admin } = adminAnswering([
      { partition: 0, high: '3' },
      { partition: 1, high: '0' },
    ]);
    expect(await topicEndOffsets(admin, 't')).toEqual(
      new Map([
        [0, 3n],
        [1, 0n],
      ]),
    );
  });

  it('asks again, with fresh metadata, after a retriable error such as a leader not elected yet', async () => {
    const { admin, calls } = adminAnswering(notLeader(), notLeader(), [{ partition: 0, high: '7' }]);
    expect(await topicEndOffsets(admin, 't')).toEqual(new Map([[0, 7n]]));
    expect(calls).toEqual({ offsets: 3, metadata: 2 });
  });

  it('throws a non-retriable error at once', async () => {
    const denied = Object.assign(new Error('Not authorized to access topics'), { retriable: false });
    const { admin, calls } = adminAnswering(denied, [{ partition: 0, high: '1' }]);
    await expect(topicEndOffsets(admin, 't')).rejects.toBe(denied);
    expect(calls.offsets).toBe(1);
  });

  it('throws the retriable error once the time allowed has passed', async () => {
    const { admin } = adminAnswering(...Array.from({ length: 20 }, notLeader));
    await expect(topicEndOffsets(admin, 't', 250)).rejects.toThrow('not the leader');
  });
});
