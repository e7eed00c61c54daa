import { deciderSpec } from '@notify/testing/decider-spec';
import { resourceDecider } from '../config/resource.decider';
import { guideEngagementDecider } from './guide-engagement.decider';

const now = '2026-01-01T00:00:00.000Z';
const upserted = {
  type: 'GuideUpserted' as const,
  data: { key: 'tour', content: { name: 'Tour' }, sha: 'a', valid: true, errors: [], upserted_at: now },
};
const served = { valid: true, errors: [] };
const activate = (from: string | null = null, until: string | null = null) => ({
  type: 'SetGuideActive' as const,
  key: 'tour',
  active: true,
  from,
  until,
  served,
  now,
});
const activated = (from: string | null = null, until: string | null = null) => ({
  type: 'GuideActivated' as const,
  data: { key: 'tour', active_from: from, active_until: until, activated_at: now },
});
const deactivated = { type: 'GuideDeactivated' as const, data: { key: 'tour', deactivated_at: now } };

describe('guide activation and archiving (resource decider)', () => {
  const spec = deciderSpec(resourceDecider);

  it('activates once, again only when the window changes, and deactivates', () => {
    spec.given([upserted]).when(activate()).then([activated()]);
    spec.given([upserted, activated()]).when(activate()).thenNothing();
    spec
      .given([upserted, activated()])
      .when(activate('2030-01-01T00:00:00Z', null))
      .then([activated('2030-01-01T00:00:00Z', null)]);
    spec
      .given([upserted, activated()])
      .when({ ...activate(), active: false })
      .then([deactivated]);
    spec
      .given([upserted])
      .when({ ...activate(), active: false })
      .thenNothing();
  });

  it('refuses to activate a guide the environment does not serve, or an invalid one', () => {
    spec
      .given([])
      .when({ ...activate(), served: null })
      .thenThrows('resource_missing');
    spec
      .given([upserted])
      .when({ ...activate(), served: { valid: false, errors: [{ field: 'steps', message: 'x', type: null }] } })
      .thenThrows('guide_invalid');
  });

  it('archives a served guide once', () => {
    spec
      .given([upserted, activated()])
      .when({ type: 'ArchiveGuide', key: 'tour', served: true, now })
      .then([{ type: 'GuideArchived', data: { key: 'tour', archived_at: now } }]);
    spec.given([upserted]).when({ type: 'ArchiveGuide', key: 'tour', served: false, now }).thenNothing();
  });
});

describe('guide engagement decider', () => {
  const spec = deciderSpec(guideEngagementDecider);
  const reset = { type: 'ResetGuideEngagement' as const, guideKey: 'tour', userId: 'ada', tenant: null, engaged: true, now };
  const wasReset = (generation: number) => ({
    type: 'GuideEngagementReset' as const,
    data: { guide_key: 'tour', user_id: 'ada', tenant: null, generation, reset_at: now },
  });

  it('starts a new generation on each reset of an engaged guide, and records nothing without engagement', () => {
    spec
      .given([])
      .when(reset)
      .then([wasReset(1)]);
    spec
      .given([wasReset(1)])
      .when(reset)
      .then([wasReset(2)]);
    spec
      .given([wasReset(1)])
      .when({ ...reset, engaged: false })
      .thenNothing();
  });
});
