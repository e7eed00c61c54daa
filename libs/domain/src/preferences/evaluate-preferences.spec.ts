import { evaluatePreferences, explainPreferences, PreferenceDecision, PreferenceLayers } from './evaluate-preferences';
import { emptyPreferenceSet, PreferenceSetData } from './preference-set';

const set = (fields: Partial<PreferenceSetData>): PreferenceSetData => ({ ...emptyPreferenceSet(), ...fields });
const workflow = { key: 'new-comment', categories: ['social', 'digest'], commercial: false, overridePreferences: false };
const email = { id: '5b8f0f5c-0000-4000-8000-000000000001', type: 'email' };
const ctx = { variables: { recipient: { plan: 'pro' }, data: { priority: 'high' } }, now: '2026-03-10T12:00:00.000Z' };
const evaluate = (layers: PreferenceLayers, overrides: Partial<typeof workflow> = {}, channel = email): PreferenceDecision =>
  evaluatePreferences({ layers, workflow: { ...workflow, ...overrides }, channel, context: ctx });

type LayerName = keyof PreferenceLayers;
const ORDER: LayerName[] = ['environmentDefault', 'tenantDefault', 'recipientDefault', 'recipientInTenant'];

describe('preference evaluation: merge order', () => {
  // For each pair of layers (lower, higher) and each kind of setting, the higher layer wins
  // whichever way round the values are, and the lower one applies when the higher is silent.
  const settings: { name: string; off: Partial<PreferenceSetData>; on: Partial<PreferenceSetData>; reason: string }[] = [
    {
      name: 'workflow',
      off: { workflows: { 'new-comment': false } },
      on: { workflows: { 'new-comment': true } },
      reason: 'workflow_opted_out',
    },
    { name: 'category', off: { categories: { social: false } }, on: { categories: { social: true } }, reason: 'category_opted_out' },
    {
      name: 'channel type',
      off: { channel_types: { email: false } },
      on: { channel_types: { email: true } },
      reason: 'channel_type_opted_out',
    },
    { name: 'channel', off: { channels: { [email.id]: false } }, on: { channels: { [email.id]: true } }, reason: 'channel_opted_out' },
  ];
  const pairs = ORDER.flatMap((lower, i) => ORDER.slice(i + 1).map((higher) => [lower, higher] as const));

  for (const s of settings) {
    it.each(pairs)(`${s.name}: %s is overridden by %s`, (lower, higher) => {
      expect(evaluate({ [lower]: set(s.off), [higher]: set(s.on) })).toEqual({ send: true, reason: 'allowed' });
      expect(evaluate({ [lower]: set(s.on), [higher]: set(s.off) })).toMatchObject({ send: false, reason: s.reason });
      expect(evaluate({ [lower]: set(s.off), [higher]: set({}) })).toMatchObject({ send: false, reason: s.reason });
      expect(evaluate({ [lower]: set(s.off), [higher]: null })).toMatchObject({ send: false, reason: s.reason });
    });
  }

  it.each(pairs)('commercial_subscribed: %s is overridden by %s', (lower, higher) => {
    const commercial = { commercial: true };
    expect(
      evaluate({ [lower]: set({ commercial_subscribed: false }), [higher]: set({ commercial_subscribed: true }) }, commercial),
    ).toEqual({ send: true, reason: 'allowed' });
    expect(
      evaluate({ [lower]: set({ commercial_subscribed: true }), [higher]: set({ commercial_subscribed: false }) }, commercial),
    ).toMatchObject({
      send: false,
      reason: 'commercial_unsubscribed',
    });
  });

  it('merges key by key: a higher layer setting one workflow leaves the others from below', () => {
    const layers = {
      environmentDefault: set({ workflows: { 'new-comment': false, other: false } }),
      recipientDefault: set({ workflows: { other: true } }),
    };
    expect(evaluate(layers)).toMatchObject({ send: false, reason: 'workflow_opted_out', source: 'workflows.new-comment' });
    expect(evaluate(layers, { key: 'other' })).toEqual({ send: true, reason: 'allowed' });
  });

  it('takes all four layers in order: environment, tenant, recipient, recipient in tenant', () => {
    const layers: PreferenceLayers = {
      environmentDefault: set({ channel_types: { email: false, sms: false, push: false, chat: false } }),
      tenantDefault: set({ channel_types: { sms: true, push: true, chat: true } }),
      recipientDefault: set({ channel_types: { push: false, chat: false } }),
      recipientInTenant: set({ channel_types: { chat: true } }),
    };
    const decide = (type: string) => evaluate(layers, {}, { id: 'c', type }).send;
    expect([decide('email'), decide('sms'), decide('push'), decide('chat')]).toEqual([false, true, false, true]);
  });
});

describe('preference evaluation: rules', () => {
  it('sends when nothing is set', () => {
    expect(evaluate({})).toEqual({ send: true, reason: 'allowed' });
  });

  it('lets the workflow setting decide over its categories', () => {
    expect(evaluate({ recipientDefault: set({ workflows: { 'new-comment': true }, categories: { social: false } }) })).toEqual({
      send: true,
      reason: 'allowed',
    });
    expect(evaluate({ recipientDefault: set({ workflows: { 'new-comment': false }, categories: { social: true } }) })).toMatchObject({
      reason: 'workflow_opted_out',
    });
  });

  it('blocks when any category of the workflow is opted out', () => {
    expect(evaluate({ recipientDefault: set({ categories: { social: true, digest: false } }) })).toMatchObject({
      reason: 'category_opted_out',
      source: 'categories.digest',
    });
    expect(evaluate({ recipientDefault: set({ categories: { marketing: false } }) })).toEqual({ send: true, reason: 'allowed' });
  });

  it('lets workflow and category settings narrow channel types and channels', () => {
    const scoped = set({ channel_types: { email: true }, workflows: { 'new-comment': { channel_types: { email: false } } } });
    expect(evaluate({ recipientDefault: scoped })).toMatchObject({
      reason: 'channel_type_opted_out',
      source: 'workflows.new-comment.channel_types.email',
    });
    expect(evaluate({ recipientDefault: scoped }, {}, { id: 'x', type: 'sms' })).toEqual({ send: true, reason: 'allowed' });
    const byCategory = set({ channels: { [email.id]: false }, categories: { social: { channels: { [email.id]: true } } } });
    expect(evaluate({ recipientDefault: byCategory })).toEqual({ send: true, reason: 'allowed' });
  });

  it('evaluates conditions on workflows, categories, channel types and channels against the run', () => {
    const high = [{ variable: 'data.priority', operator: 'equal_to' as const, argument: 'high' }];
    const low = [{ variable: 'data.priority', operator: 'equal_to' as const, argument: 'low' }];
    expect(evaluate({ recipientDefault: set({ workflows: { 'new-comment': { conditions: high } } }) })).toEqual({
      send: true,
      reason: 'allowed',
    });
    expect(evaluate({ recipientDefault: set({ workflows: { 'new-comment': { conditions: low } } }) })).toMatchObject({
      reason: 'workflow_conditions_not_met',
    });
    expect(evaluate({ recipientDefault: set({ categories: { social: { conditions: low } } }) })).toMatchObject({
      reason: 'category_conditions_not_met',
    });
    expect(evaluate({ recipientDefault: set({ channel_types: { email: { conditions: low } } }) })).toMatchObject({
      reason: 'channel_type_conditions_not_met',
    });
    expect(evaluate({ recipientDefault: set({ channels: { [email.id]: { conditions: low } } }) })).toMatchObject({
      reason: 'channel_conditions_not_met',
    });
    expect(evaluate({ recipientDefault: set({ channels: { [email.id]: { conditions: high } } }) })).toEqual({
      send: true,
      reason: 'allowed',
    });
  });

  it('maps the in-app channel types onto the in_app_feed preference', () => {
    const off = { recipientDefault: set({ channel_types: { in_app_feed: false } }) };
    expect(evaluate(off, {}, { id: 'f', type: 'in_app_feed' })).toMatchObject({ reason: 'channel_type_opted_out' });
    expect(evaluate(off, {}, { id: 'f', type: 'in_app' })).toMatchObject({ reason: 'channel_type_opted_out' });
    expect(evaluate(off, {}, { id: 'g', type: 'in_app_guide' })).toEqual({ send: true, reason: 'allowed' });
  });

  it('overrides preferences when the workflow says so, but never a commercial unsubscribe', () => {
    const off = { recipientDefault: set({ workflows: { 'new-comment': false }, channel_types: { email: false } }) };
    expect(evaluate(off, { overridePreferences: true })).toEqual({ send: true, reason: 'preferences_overridden' });
    const unsubscribed = { recipientDefault: set({ commercial_subscribed: false }) };
    expect(evaluate(unsubscribed, { overridePreferences: true, commercial: true })).toMatchObject({
      send: false,
      reason: 'commercial_unsubscribed',
    });
    expect(evaluate(unsubscribed, { commercial: false })).toEqual({ send: true, reason: 'allowed' });
  });

  it('treats commercial_subscribed conditions as a subscription that holds only when they do', () => {
    const pro = [{ variable: 'recipient.plan', operator: 'equal_to' as const, argument: 'pro' }];
    const free = [{ variable: 'recipient.plan', operator: 'equal_to' as const, argument: 'free' }];
    expect(evaluate({ recipientDefault: set({ commercial_subscribed: { conditions: pro } }) }, { commercial: true })).toEqual({
      send: true,
      reason: 'allowed',
    });
    expect(evaluate({ recipientDefault: set({ commercial_subscribed: { conditions: free } }) }, { commercial: true })).toMatchObject({
      reason: 'commercial_unsubscribed',
    });
  });
});

describe('explainPreferences: which layer decided, with which value (ADR 0219)', () => {
  const explain = (layers: PreferenceLayers, overrides: Partial<typeof workflow> = {}, channel = email) =>
    explainPreferences({ layers, workflow: { ...workflow, ...overrides }, channel, context: ctx });

  it.each([
    ['environmentDefault', 'environment_default'],
    ['tenantDefault', 'tenant_default'],
    ['recipientDefault', 'recipient_default'],
    ['recipientInTenant', 'recipient_in_tenant'],
  ] as const)('names the %s layer when its opt-out decided', (layer, name) => {
    const { decision, trace } = explain({ [layer]: set({ channel_types: { email: false } }) });
    expect(decision).toMatchObject({ send: false, reason: 'channel_type_opted_out' });
    expect(trace.decided_by).toEqual({ setting: 'channel_types.email', layer: name, value: false, result: 'opted_out' });
  });

  it('names the most specific layer that set the setting: the one the merge kept', () => {
    const { trace } = explain({
      tenantDefault: set({ workflows: { 'new-comment': true }, categories: { social: true } }),
      recipientDefault: set({ workflows: { 'new-comment': false } }),
    });
    expect(trace.decided_by).toEqual({ setting: 'workflows.new-comment', layer: 'recipient_default', value: false, result: 'opted_out' });
    expect(trace.checked).toEqual([trace.decided_by]);
  });

  it('records the settings that allowed a message, and scoped settings by the layer of their workflow or category', () => {
    const { decision, trace } = explain({
      tenantDefault: set({ categories: { social: { channel_types: { email: true } } } }),
      recipientDefault: set({ channel_types: { email: false } }),
    });
    // The category's scoped channel type setting replaces the user's own channel type setting.
    expect(decision).toEqual({ send: true, reason: 'allowed' });
    expect(trace).toEqual({
      commercial: false,
      override_preferences: false,
      channel_type: 'email',
      decided_by: null,
      checked: [
        {
          setting: 'categories.social',
          layer: 'tenant_default',
          value: { channel_types: { email: true } },
          result: 'allowed',
          conditions: [],
        },
        { setting: 'categories.social.channel_types.email', layer: 'tenant_default', value: true, result: 'allowed' },
      ],
    });
  });

  it("records a setting's conditions with the values they compared", () => {
    const free = [{ variable: 'recipient.plan', operator: 'equal_to' as const, argument: 'free' }];
    const { decision, trace } = explain({ recipientInTenant: set({ categories: { digest: { conditions: free } } }) });
    expect(decision).toMatchObject({ reason: 'category_conditions_not_met' });
    expect(trace.decided_by).toEqual({
      setting: 'categories.digest',
      layer: 'recipient_in_tenant',
      value: { conditions: free },
      result: 'conditions_not_met',
      conditions: [
        { variable: 'recipient.plan', operator: 'equal_to', argument: 'free', value: 'pro', compared_to: 'free', result: false },
      ],
    });
  });

  it('records a commercial unsubscribe and an override, and nothing checked when no setting applies', () => {
    const unsubscribed = explain(
      { environmentDefault: set({ commercial_subscribed: false }) },
      { commercial: true, overridePreferences: true },
    );
    expect(unsubscribed.trace).toMatchObject({
      commercial: true,
      override_preferences: true,
      decided_by: { setting: 'commercial_subscribed', layer: 'environment_default', value: false, result: 'opted_out' },
    });
    const overridden = explain({ recipientDefault: set({ channel_types: { email: false } }) }, { overridePreferences: true });
    expect(overridden).toMatchObject({ decision: { reason: 'preferences_overridden' }, trace: { checked: [], decided_by: null } });
    expect(explain({}).trace).toMatchObject({ checked: [], decided_by: null });
  });

  it('decides exactly as evaluatePreferences', () => {
    const layers = { tenantDefault: set({ channels: { [email.id]: false } }), recipientDefault: set({ categories: { digest: true } }) };
    expect(explain(layers).decision).toEqual(evaluate(layers));
  });
});
