import { CommittedRequests } from './committed-requests';

const append = (requestId?: string) => ({
  events: [
    { id: 'e', type: 'T', data: {}, metadata: { environment: 'dev', schema_version: 1, ...(requestId ? { request_id: requestId } : {}) } },
  ],
});

describe('CommittedRequests', () => {
  it('knows the requests whose appends committed until they are forgotten', () => {
    const ledger = new CommittedRequests();
    ledger.noteAppends([append('r1'), append()]);
    expect(ledger.has('r1')).toBe(true);
    expect(ledger.has('r2')).toBe(false);
    ledger.forget('r1');
    expect(ledger.has('r1')).toBe(false);
  });

  it('keeps at most its limit, dropping the oldest first', () => {
    const ledger = new CommittedRequests(2);
    ledger.noteAppends([append('a'), append('b'), append('c')]);
    expect(['a', 'b', 'c'].map((id) => ledger.has(id))).toEqual([false, true, true]);
  });
});
