import { joinObjectFragments } from './subscriptions';

describe('joinObjectFragments', () => {
  it('joins the fragments a[][id]=x&a[][collection]=y parses into, leaving ids and whole objects alone', () => {
    expect(
      joinObjectFragments(['s2', { id: 'eng' }, { collection: 'teams' }, { id: 'a', collection: 'b' }, { id: 'c' }, { collection: 'd' }]),
    ).toEqual(['s2', { id: 'eng', collection: 'teams' }, { id: 'a', collection: 'b' }, { id: 'c', collection: 'd' }]);
    expect(joinObjectFragments('one')).toBe('one');
  });
});
