import { DEFAULT_PREFERENCE_CENTER_CONFIG, PreferenceCenterConfigDataT } from '@notify/contracts';
import { deciderSpec } from '@notify/testing/decider-spec';
import { preferenceCategoryDecider, preferenceCenterDecider } from './preference-center.deciders';

const now = '2026-01-01T00:00:00.000Z';
const created = { type: 'PreferenceCategoryCreated' as const, data: { name: 'billing', created_at: now } };
const archived = { type: 'PreferenceCategoryArchived' as const, data: { name: 'billing', archived_at: now } };

describe('preference category decider', () => {
  const spec = deciderSpec(preferenceCategoryDecider);

  it('creates a category once; a repeat upsert records nothing', () => {
    spec.given([]).when({ type: 'UpsertPreferenceCategory', name: 'billing', now }).then([created]);
    spec.given([created]).when({ type: 'UpsertPreferenceCategory', name: 'billing', now }).thenNothing();
  });

  it('archives a live category, creates an archived one anew, refuses to archive an absent one', () => {
    spec.given([created]).when({ type: 'ArchivePreferenceCategory', name: 'billing', now }).then([archived]);
    spec.given([created, archived]).when({ type: 'UpsertPreferenceCategory', name: 'billing', now }).then([created]);
    spec.given([]).when({ type: 'ArchivePreferenceCategory', name: 'billing', now }).thenThrows('resource_missing');
    spec.given([created, archived]).when({ type: 'ArchivePreferenceCategory', name: 'billing', now }).thenThrows('resource_missing');
  });
});

describe('preference center decider', () => {
  const spec = deciderSpec(preferenceCenterDecider);
  const config: PreferenceCenterConfigDataT = {
    title: 'Prefs',
    body: 'Choose',
    rows: [{ type: 'category', name: 'Billing', identifier: 'billing' }],
  };
  const configured = (enabled: boolean, c: PreferenceCenterConfigDataT = config) => ({
    type: 'PreferenceCenterConfigured' as const,
    data: { environment: 'development', config: c, enabled, configured_at: now },
  });

  it('records a configuration; enabled left out keeps the flag (on at first)', () => {
    spec
      .given([])
      .when({ type: 'ConfigurePreferenceCenter', environment: 'development', config, now })
      .then([configured(true)]);
    spec
      .given([configured(false, DEFAULT_PREFERENCE_CENTER_CONFIG)])
      .when({ type: 'ConfigurePreferenceCenter', environment: 'development', config, now })
      .then([configured(false)]);
    spec
      .given([configured(true)])
      .when({ type: 'ConfigurePreferenceCenter', environment: 'development', config, enabled: false, now })
      .then([configured(false)]);
  });

  it('ignores a repeat, and a reset puts the defaults back keeping the flag', () => {
    spec
      .given([configured(true)])
      .when({ type: 'ConfigurePreferenceCenter', environment: 'development', config, now })
      .thenNothing();
    spec
      .given([configured(false)])
      .when({ type: 'ResetPreferenceCenter', environment: 'development', defaults: DEFAULT_PREFERENCE_CENTER_CONFIG, now })
      .then([configured(false, DEFAULT_PREFERENCE_CENTER_CONFIG)]);
  });
});
