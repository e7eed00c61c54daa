import { applyPreferenceSetRequest, emptyPreferenceSet, layerPreferenceSets } from './preference-set';

const stored = { ...emptyPreferenceSet(), categories: { a: true, b: false }, channel_types: { email: true }, commercial_subscribed: true };

describe('applyPreferenceSetRequest', () => {
  it('replaces by default: fields not sent become null', () => {
    expect(applyPreferenceSetRequest(stored, { categories: { c: true } }, 'replace')).toEqual({
      ...emptyPreferenceSet(),
      categories: { c: true },
    });
  });

  it('merges when asked: keyed fields key by key, others kept, null clears', () => {
    expect(
      applyPreferenceSetRequest(
        stored,
        { __persistence_strategy__: 'merge', categories: { b: true, c: false }, channel_types: null },
        'replace',
      ),
    ).toEqual({
      ...emptyPreferenceSet(),
      categories: { a: true, b: true, c: false },
      channel_types: null,
      commercial_subscribed: true,
    });
  });

  it('lets the request strategy win over the fallback, and merges onto nothing as a plain set', () => {
    expect(
      applyPreferenceSetRequest(stored, { __persistence_strategy__: 'replace', workflows: { w: false } }, 'merge').categories,
    ).toBeNull();
    expect(applyPreferenceSetRequest(undefined, { workflows: { w: false } }, 'merge')).toEqual({
      ...emptyPreferenceSet(),
      workflows: { w: false },
    });
  });
});

describe('layerPreferenceSets', () => {
  it('overrides setting by setting, skipping absent layers and null fields', () => {
    const low = { ...emptyPreferenceSet(), workflows: { w: false, x: true }, commercial_subscribed: false };
    const high = { ...emptyPreferenceSet(), workflows: { w: true } };
    expect(layerPreferenceSets([low, undefined, null, high])).toEqual({
      ...emptyPreferenceSet(),
      workflows: { w: true, x: true },
      commercial_subscribed: false,
    });
  });
});
