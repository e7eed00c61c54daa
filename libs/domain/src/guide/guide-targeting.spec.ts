import { guideActiveAt, guideAudienceKeys, guideEligibility, GuideTargeting, RecipientGuideContext } from './guide-targeting';

const guide: GuideTargeting = { active: true, activeFrom: null, activeUntil: null, targetAudienceKey: null, targetConditions: null };
const ctx: RecipientGuideContext = {
  now: '2026-06-01T12:00:00.000Z',
  variables: { recipient: { id: 'ada', plan: 'pro' }, tenant: { id: 'acme', tier: 'gold' }, data: { page: 'billing' } },
  audiences: [],
  archived: false,
};
const reason = (g: Partial<GuideTargeting>, c: Partial<RecipientGuideContext> = {}) => {
  const out = guideEligibility({ ...guide, ...g }, { ...ctx, ...c });
  return out.eligible ? 'eligible' : out.reason;
};

describe('guide targeting', () => {
  it('shows an active guide with no targeting to everyone', () => {
    expect(reason({})).toBe('eligible');
  });

  it('is active only when activated and inside its window (start inclusive, end exclusive)', () => {
    expect(reason({ active: false })).toBe('guide_not_active');
    expect(guideActiveAt({ ...guide, activeFrom: ctx.now }, ctx.now)).toBe(true);
    expect(guideActiveAt({ ...guide, activeFrom: '2026-06-01T12:00:00.001Z' }, ctx.now)).toBe(false);
    expect(guideActiveAt({ ...guide, activeUntil: ctx.now }, ctx.now)).toBe(false);
    expect(guideActiveAt({ ...guide, activeFrom: '2026-01-01T00:00:00Z', activeUntil: '2027-01-01T00:00:00Z' }, ctx.now)).toBe(true);
    expect(reason({ activeUntil: '2026-01-01T00:00:00Z' })).toBe('guide_not_active');
  });

  it('hides a guide the recipient archived', () => {
    expect(reason({}, { archived: true })).toBe('marked_as_archived');
  });

  it('needs membership of the target audience', () => {
    expect(reason({ targetAudienceKey: 'beta' })).toBe('not_in_target_audience');
    expect(reason({ targetAudienceKey: 'beta' }, { audiences: ['beta'] })).toBe('eligible');
  });

  it('evaluates conditions over recipient, tenant and data', () => {
    const cond = (variable: string, argument: string) => ({ all: [{ variable, operator: 'equal_to', argument }] });
    expect(reason({ targetConditions: cond('recipient.plan', 'pro') })).toBe('eligible');
    expect(reason({ targetConditions: cond('recipient.plan', 'free') })).toBe('target_conditions_not_met');
    expect(reason({ targetConditions: cond('tenant.tier', 'gold') })).toBe('eligible');
    expect(reason({ targetConditions: cond('data.page', 'billing') })).toBe('eligible');
    expect(reason({ targetConditions: cond('data.page', 'home') })).toBe('target_conditions_not_met');
    const any = {
      any: [
        { variable: 'recipient.plan', operator: 'equal_to', argument: 'free' },
        { all: [{ variable: 'data.page', operator: 'equal_to', argument: 'billing' }] },
      ],
    };
    expect(reason({ targetConditions: any })).toBe('eligible');
    const member = { all: [{ variable: 'recipient', operator: 'is_audience_member', argument: 'vip' }] };
    expect(reason({ targetConditions: member })).toBe('target_conditions_not_met');
    expect(reason({ targetConditions: member }, { audiences: ['vip'] })).toBe('eligible');
  });

  it('gives the first reason that applies', () => {
    const all = {
      active: false,
      targetAudienceKey: 'beta',
      targetConditions: { all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'x' }] },
    };
    expect(reason(all, { archived: true })).toBe('guide_not_active');
    expect(reason({ ...all, active: true }, { archived: true })).toBe('marked_as_archived');
    expect(reason({ ...all, active: true })).toBe('not_in_target_audience');
    expect(reason({ ...all, active: true }, { audiences: ['beta'] })).toBe('target_conditions_not_met');
  });

  it('names the audiences it must look up', () => {
    const member = { all: [{ variable: 'recipient', operator: 'is_audience_member', argument: 'vip' }] };
    expect(guideAudienceKeys({ targetAudienceKey: 'beta', targetConditions: member })).toEqual(['beta', 'vip']);
    expect(guideAudienceKeys({ targetAudienceKey: null, targetConditions: null })).toEqual([]);
  });
});
