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
