import { deciderSpec } from '@notify/testing/decider-spec';
import { mergeProperties, userDecider } from './user.decider';

const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const identified = (properties: Record<string, unknown>, at = now) => ({
  type: 'UserIdentified' as const,
  data: { user_id: 'u1', properties, identified_at: at },
});

describe('user decider', () => {
  const spec = deciderSpec(userDecider);

  it('identifies a new user, even with no properties', () => {
    spec
      .given([])
      .when({ type: 'IdentifyUser', userId: 'u1', properties: {}, now })
      .then([identified({})]);
    spec
      .given([])
      .when({ type: 'IdentifyUser', userId: 'u1', properties: { name: 'Ada', plan: 'pro' }, now })
      .then([identified({ name: 'Ada', plan: 'pro' })]);
  });

  it('records only the properties that change', () => {
    spec
      .given([identified({ name: 'Ada', plan: 'pro' })])
      .when({ type: 'IdentifyUser', userId: 'u1', properties: { name: 'Ada', plan: 'team', email: 'a@x.io' }, now: later })
      .then([identified({ plan: 'team', email: 'a@x.io' }, later)]);
  });

  it('does nothing when identify changes nothing', () => {
    spec
      .given([identified({ name: 'Ada', tags: ['a'] })])
      .when({ type: 'IdentifyUser', userId: 'u1', properties: { name: 'Ada', tags: ['a'] }, now: later })
      .thenNothing();
  });

  it('removes a property set to null, and ignores null for an absent one', () => {
    spec
      .given([identified({ name: 'Ada', plan: 'pro' })])
      .when({ type: 'IdentifyUser', userId: 'u1', properties: { plan: null }, now })
      .then([identified({ plan: null })]);
    spec
      .given([identified({ name: 'Ada' })])
      .when({ type: 'IdentifyUser', userId: 'u1', properties: { plan: null }, now })
      .thenNothing();
  });

  it('deletes an existing user once; deleting an unknown one changes nothing', () => {
    const deleted = { type: 'UserDeleted' as const, data: { user_id: 'u1', deleted_at: later } };
    spec
      .given([identified({})])
      .when({ type: 'DeleteUser', userId: 'u1', now: later })
      .then([deleted]);
    spec
      .given([identified({}), deleted])
      .when({ type: 'DeleteUser', userId: 'u1', now: later })
      .thenNothing();
    spec.given([]).when({ type: 'DeleteUser', userId: 'u1', now }).thenNothing();
  });

  it('erases a user: deleted if they exist, then erased with the reason; once per history', () => {
    const deleted = { type: 'UserDeleted' as const, data: { user_id: 'u1', deleted_at: later } };
    const erased = (reason: string | null) => ({ type: 'UserErased' as const, data: { user_id: 'u1', reason, erased_at: later } });
    const erase = (reason: string | null) => ({ type: 'EraseUser' as const, userId: 'u1', reason, now: later });
    spec
      .given([identified({ email: 'a@example.org' })])
      .when(erase(null))
      .then([deleted, erased(null)]);
    // Deleted earlier (a merge's source, or a delete before erasure existed): erased without a second delete.
    spec
      .given([identified({}), deleted])
      .when(erase('ticket 42'))
      .then([erased('ticket 42')]);
    spec
      .given([identified({}), deleted, erased(null)])
      .when(erase(null))
      .thenNothing();
    spec.given([]).when(erase(null)).thenNothing();
    // Identified again after an erasure: a new history, erasable again.
    spec
      .given([identified({}), deleted, erased(null), identified({ name: 'Ada' })])
      .when(erase(null))
      .then([deleted, erased(null)]);
  });

  it('starts a re-identified user from scratch after a delete', () => {
    spec
      .given([identified({ name: 'Ada', plan: 'pro' }), { type: 'UserDeleted', data: { user_id: 'u1', deleted_at: now } }])
      .when({ type: 'IdentifyUser', userId: 'u1', properties: { name: 'Ada' }, now: later })
      .then([identified({ name: 'Ada' }, later)]);
  });
});

describe('mergeProperties', () => {
  it('replaces values, removes nulls and keeps the rest', () => {
    expect(mergeProperties({ a: 1, b: { x: 1 }, c: 3 }, { b: { y: 2 }, c: null, d: 4 })).toEqual({ a: 1, b: { y: 2 }, d: 4 });
  });
});
