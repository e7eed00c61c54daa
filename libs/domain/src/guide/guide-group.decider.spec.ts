import { deciderSpec } from '@notify/testing/decider-spec';
import { guideGroupDecider, GuideGroupSettings } from './guide-group.decider';

const now = '2026-01-01T00:00:00.000Z';
const settings: GuideGroupSettings = { display_sequence: ['a', 'b'], display_sequence_unthrottled: ['c'], display_interval: 3600 };
const set = (s = settings) => ({ type: 'SetGuideGroup' as const, key: 'default', settings: s, now });
const updated = (s = settings) => ({ type: 'GuideGroupUpdated' as const, data: { key: 'default', ...s, updated_at: now } });

describe('guide group decider', () => {
  const spec = deciderSpec(guideGroupDecider);

  it('records the settings, and nothing when they are unchanged', () => {
    spec.given([]).when(set()).then([updated()]);
    spec.given([updated()]).when(set()).thenNothing();
    spec
      .given([updated()])
      .when(set({ ...settings, display_sequence_unthrottled: ['c'] }))
      .thenNothing();
  });

  it('records a new order or interval', () => {
    const reordered = { ...settings, display_sequence: ['b', 'a'] };
    spec
      .given([updated()])
      .when(set(reordered))
      .then([updated(reordered)]);
    const unthrottled = { ...settings, display_interval: null };
    spec
      .given([updated()])
      .when(set(unthrottled))
      .then([updated(unthrottled)]);
  });
});
