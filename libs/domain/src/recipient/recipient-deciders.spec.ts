import { deciderSpec } from '@notify/testing/decider-spec';
import { emptyPreferenceSet } from '../preferences/preference-set';
import { objectDecider } from '../object/object.decider';
import { userDecider } from '../user/user.decider';
import { emptyAspects } from './recipient-aspects';

const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const user = { type: 'user' as const, id: 'u1' };
const push = { id: 'c0000000-0000-4000-8000-000000000001', type: 'push', provider: 'push_fcm' };
const identified = (properties: Record<string, unknown> = {}, at = now) => ({
  type: 'UserIdentified' as const,
  data: { user_id: 'u1', properties, identified_at: at },
});
const prefs = (fields: object, id = 'default', at = now) => ({
  type: 'PreferenceSetUpdated' as const,
  data: { recipient: user, preference_set_id: id, preferences: { ...emptyPreferenceSet(), ...fields }, updated_at: at },
});
const channelData = (data: Record<string, unknown>, at = now) => ({
  type: 'ChannelDataSet' as const,
  data: { recipient: user, channel_id: push.id, channel_type: 'push', provider: 'push_fcm', data, set_at: at },
});

describe('user decider: channel data and preferences', () => {
  const spec = deciderSpec(userDecider);

  it('applies inline channel data and preferences with identify, in one decision', () => {
    spec
      .given([])
      .when({
        type: 'IdentifyUser',
        userId: 'u1',
        properties: { name: 'Ada' },
        aspects: [
          { type: 'SetChannelData', channel: push, data: { tokens: ['t1'] }, now },
          { type: 'SetPreferenceSet', preferenceSetId: 'default', request: { channel_types: { sms: false } }, strategy: 'merge', now },
        ],
        now,
      })
      .then([identified({ name: 'Ada' }), channelData({ tokens: ['t1'] }), prefs({ channel_types: { sms: false } })]);
  });

  it('records only the aspects that change on a repeated identify', () => {
    spec
      .given([identified({ name: 'Ada' }), channelData({ tokens: ['t1'] })])
      .when({
        type: 'IdentifyUser',
        userId: 'u1',
        properties: { name: 'Ada' },
        aspects: [{ type: 'SetChannelData', channel: push, data: { tokens: ['t1'] }, now: later }],
        now: later,
      })
      .thenNothing();
    spec
      .given([identified({ name: 'Ada' })])
      .when({
        type: 'IdentifyUser',
        userId: 'u1',
        properties: { name: 'Ada' },
        aspects: [{ type: 'SetChannelData', channel: push, data: { tokens: ['t2'] }, now: later }],
        now: later,
      })
      .then([channelData({ tokens: ['t2'] }, later)]);
  });

  it('creates an absent user when its channel data or preferences are set, not when they are removed', () => {
    spec
      .given([])
      .when({
        type: 'UpdateUserAspects',
        userId: 'u1',
        commands: [{ type: 'SetChannelData', channel: push, data: { tokens: ['t1'] }, now }],
        now,
      })
      .then([identified({}), channelData({ tokens: ['t1'] })]);
    spec
      .given([])
      .when({ type: 'UpdateUserAspects', userId: 'u1', commands: [{ type: 'UnsetChannelData', channelId: push.id, now }], now })
      .thenNothing();
  });

  it('drops push tokens a provider reported gone, from tokens and devices, keeping the rest', () => {
    const remove = (tokens: string[]) => ({
      type: 'UpdateUserAspects' as const,
      userId: 'u1',
      commands: [{ type: 'RemoveChannelDataTokens' as const, channelId: push.id, tokens, now: later }],
      now: later,
    });
    const given = [
      identified(),
      channelData({
        tokens: ['t1', 't2'],
        devices: [
          { token: 't2', locale: 'en' },
          { token: 't3', locale: 'fi' },
        ],
      }),
    ];
    spec
      .given(given)
      .when(remove(['t2']))
      .then([channelData({ tokens: ['t1'], devices: [{ token: 't3', locale: 'fi' }] }, later)]);
    spec
      .given(given)
      .when(remove(['t9']))
      .thenNothing();
    spec
      .given([identified()])
      .when(remove(['t1']))
      .thenNothing();
    spec
      .given([])
      .when(remove(['t1']))
      .thenNothing();
  });

  it('merges or replaces a preference set, and deletes it once', () => {
    const given = [identified(), prefs({ categories: { a: true }, channel_types: { email: false } })];
    spec
      .given(given)
      .when({
        type: 'UpdateUserAspects',
        userId: 'u1',
        commands: [
          { type: 'SetPreferenceSet', preferenceSetId: 'default', request: { categories: { b: false } }, strategy: 'replace', now: later },
        ],
        now: later,
      })
      .then([prefs({ categories: { b: false } }, 'default', later)]);
    spec
      .given(given)
      .when({
        type: 'UpdateUserAspects',
        userId: 'u1',
        commands: [
          {
            type: 'SetPreferenceSet',
            preferenceSetId: 'default',
            request: { __persistence_strategy__: 'merge', categories: { b: false } },
            strategy: 'replace',
            now: later,
          },
        ],
        now: later,
      })
      .then([prefs({ categories: { a: true, b: false }, channel_types: { email: false } }, 'default', later)]);
    const deleted = { type: 'PreferenceSetDeleted' as const, data: { recipient: user, preference_set_id: 'default', deleted_at: later } };
    spec
      .given(given)
      .when({
        type: 'UpdateUserAspects',
        userId: 'u1',
        commands: [{ type: 'DeletePreferenceSet', preferenceSetId: 'default', now: later }],
        now: later,
      })
      .then([deleted]);
    spec
      .given([...given, deleted])
      .when({
        type: 'UpdateUserAspects',
        userId: 'u1',
        commands: [{ type: 'DeletePreferenceSet', preferenceSetId: 'default', now: later }],
        now: later,
      })
      .thenNothing();
  });

  it('forgets channel data and preferences when the user is deleted', () => {
    spec
      .given([identified(), channelData({ tokens: ['t1'] }), { type: 'UserDeleted', data: { user_id: 'u1', deleted_at: now } }])
      .when({
        type: 'UpdateUserAspects',
        userId: 'u1',
        commands: [{ type: 'SetChannelData', channel: push, data: { tokens: ['t1'] }, now: later }],
        now: later,
      })
      .then([identified({}, later), channelData({ tokens: ['t1'] }, later)]);
  });

  describe('merge', () => {
    const source = {
      exists: true,
      aspects: {
        preferences: {
          default: { ...emptyPreferenceSet(), workflows: { w: false } },
          acme: { ...emptyPreferenceSet(), commercial_subscribed: false },
        },
        channelData: { [push.id]: { channel_type: 'push', provider: 'push_fcm', data: { tokens: ['from'] } } },
      },
    };

    it('moves what the target lacks and keeps what it has', () => {
      spec
        .given([identified(), prefs({ categories: { mine: true } })])
        .when({ type: 'MergeUser', userId: 'u1', fromUserId: 'u2', from: source, now: later })
        .then([
          {
            type: 'UserMerged',
            data: {
              user_id: 'u1',
              from_user_id: 'u2',
              preference_sets: [{ preference_set_id: 'acme', preferences: source.aspects.preferences.acme }],
              channel_data: [{ channel_id: push.id, channel_type: 'push', provider: 'push_fcm', data: { tokens: ['from'] } }],
              merged_at: later,
            },
          },
        ]);
    });

    it('refuses a merge into itself, into an absent user, or from an absent one', () => {
      spec
        .given([identified()])
        .when({ type: 'MergeUser', userId: 'u1', fromUserId: 'u1', from: source, now })
        .thenThrows('invalid_params');
      spec.given([]).when({ type: 'MergeUser', userId: 'u1', fromUserId: 'u2', from: source, now }).thenThrows('resource_missing');
      spec
        .given([identified()])
        .when({ type: 'MergeUser', userId: 'u1', fromUserId: 'u2', from: { exists: false, aspects: emptyAspects() }, now })
        .thenThrows('resource_missing');
    });
  });
});

describe('object decider', () => {
  const spec = deciderSpec(objectDecider);
  const set = (properties: Record<string, unknown>, at = now) => ({
    type: 'ObjectSet' as const,
    data: { collection: 'projects', object_id: 'p1', properties, set_at: at },
  });
  const base = { collection: 'projects', objectId: 'p1' };
  const alice = { type: 'user' as const, id: 'alice' };
  const team = { type: 'object' as const, collection: 'teams', id: 't1' };
  const added = (recipient: typeof alice | typeof team, properties: Record<string, unknown> | null, at = now) => ({
    type: 'SubscriptionAdded' as const,
    data: { collection: 'projects', object_id: 'p1', recipient, properties, added_at: at },
  });

  it('sets, merges properties, and deletes', () => {
    spec
      .given([])
      .when({ type: 'SetObject', ...base, properties: { name: 'P' }, now })
      .then([set({ name: 'P' })]);
    spec
      .given([set({ name: 'P' })])
      .when({ type: 'SetObject', ...base, properties: { name: 'P' }, now })
      .thenNothing();
    spec
      .given([set({ name: 'P' })])
      .when({ type: 'DeleteObject', ...base, now })
      .then([{ type: 'ObjectDeleted', data: { collection: 'projects', object_id: 'p1', deleted_at: now } }]);
    spec
      .given([])
      .when({ type: 'DeleteObject', ...base, now })
      .thenNothing();
  });

  it('subscribes users and objects, creating the object when absent, and upserts properties', () => {
    spec
      .given([])
      .when({
        type: 'AddSubscriptions',
        ...base,
        subscribers: [
          { recipient: alice, current: null },
          { recipient: team, current: null },
        ],
        properties: { role: 'owner' },
        now,
      })
      .then([set({}), added(alice, { role: 'owner' }), added(team, { role: 'owner' })]);
    spec
      .given([set({})])
      .when({
        type: 'AddSubscriptions',
        ...base,
        subscribers: [{ recipient: alice, current: { properties: { role: 'owner' } } }],
        properties: { role: 'owner' },
        now: later,
      })
      .thenNothing();
    spec
      .given([set({})])
      .when({
        type: 'AddSubscriptions',
        ...base,
        subscribers: [{ recipient: alice, current: { properties: { role: 'owner' } } }],
        properties: { role: 'viewer' },
        now: later,
      })
      .then([added(alice, { role: 'viewer' }, later)]);
    spec
      .given([set({})])
      .when({
        type: 'AddSubscriptions',
        ...base,
        subscribers: [{ recipient: alice, current: { properties: { role: 'owner' } } }],
        properties: undefined,
        now: later,
      })
      .thenNothing();
  });

  it('removes only existing subscriptions', () => {
    spec
      .given([set({})])
      .when({
        type: 'RemoveSubscriptions',
        ...base,
        subscribers: [
          { recipient: alice, current: { properties: null } },
          { recipient: team, current: null },
        ],
        now,
      })
      .then([{ type: 'SubscriptionRemoved', data: { collection: 'projects', object_id: 'p1', recipient: alice, removed_at: now } }]);
  });
});
