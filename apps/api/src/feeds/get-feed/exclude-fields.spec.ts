import { excludeFields } from './exclude-fields';

describe('excludeFields', () => {
  it('removes top-level, nested and per-element paths and leaves the rest', () => {
    const answer = {
      entries: [
        { id: 'a', archived_at: null, source: { key: 'k', categories: [] } },
        { id: 'b', archived_at: 'x', source: { key: 'j', categories: ['c'] } },
      ],
      meta: { total_count: 2, unseen_count: 1 },
      vars: { a: 1 },
    };
    excludeFields(answer, ['entries.archived_at', 'entries.source.categories', 'meta.unseen_count', 'vars', 'missing.path']);
    expect(answer).toEqual({
      entries: [
        { id: 'a', source: { key: 'k' } },
        { id: 'b', source: { key: 'j' } },
      ],
      meta: { total_count: 2 },
    });
  });
});
