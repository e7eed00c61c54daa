import { evaluateCondition } from '../preferences/conditions';
import { audienceKeysIn, ConditionGroup, conditionGroupHolds } from '../run/steps/condition-groups';

/** Why a guide is not shown to a recipient: the reasons the public API names. */
export type GuideIneligibility = 'guide_not_active' | 'marked_as_archived' | 'not_in_target_audience' | 'target_conditions_not_met';

export interface GuideTargeting {
  active: boolean;
  /** ISO 8601 bounds of a scheduled activation; null when unbounded. */
  activeFrom: string | null;
  activeUntil: string | null;
  targetAudienceKey: string | null;
  targetConditions: ConditionGroup | null;
}

export interface RecipientGuideContext {
  /** Evaluation time (ISO 8601). */
  now: string;
  /** `recipient`, `tenant` and the `data` the client sends. */
  variables: { recipient: Record<string, unknown>; tenant: Record<string, unknown> | null; data: Record<string, unknown> };
  /** Keys of the audiences the recipient belongs to (at least those the guide asks about: guideAudienceKeys). */
  audiences: readonly string[];
  /** Whether the recipient archived every step of the guide. */
  archived: boolean;
}

export type GuideEligibility = { eligible: true } | { eligible: false; reason: GuideIneligibility; message: string };

/** Active, and inside its window when it has one: the start is inclusive, the end exclusive. */
export function guideActiveAt(guide: Pick<GuideTargeting, 'active' | 'activeFrom' | 'activeUntil'>, now: string): boolean {
  const t = Date.parse(now);
  if (!guide.active) return false;
  if (guide.activeFrom !== null && t < Date.parse(guide.activeFrom)) return false;
  if (guide.activeUntil !== null && t >= Date.parse(guide.activeUntil)) return false;
  return true;
}

/** The audiences whose membership decides the guide: its target audience and those its conditions name. */
export function guideAudienceKeys(guide: Pick<GuideTargeting, 'targetAudienceKey' | 'targetConditions'>): string[] {
  const keys = audienceKeysIn(guide.targetConditions);
  return [...new Set(guide.targetAudienceKey ? [guide.targetAudienceKey, ...keys] : keys)];
}

/**
 * Whether a guide is shown to a recipient, checked in a fixed order so the reason is the first
 * that applies: activation, the recipient's own archiving, the target audience, then the
 * conditions over recipient, tenant and data (ADR 0187).
 */
export function guideEligibility(guide: GuideTargeting, ctx: RecipientGuideContext): GuideEligibility {
  if (!guideActiveAt(guide, ctx.now)) return { eligible: false, reason: 'guide_not_active', message: 'The guide is not active' };
  if (ctx.archived) return { eligible: false, reason: 'marked_as_archived', message: 'The recipient archived the guide' };
  if (guide.targetAudienceKey && !ctx.audiences.includes(guide.targetAudienceKey))
    return {
      eligible: false,
      reason: 'not_in_target_audience',
      message: `The recipient is not in the audience ${guide.targetAudienceKey}`,
    };
  const conditionContext = { variables: ctx.variables as Record<string, unknown>, now: ctx.now, audiences: ctx.audiences };
  const holds = conditionGroupHolds(guide.targetConditions, (c) =>
    evaluateCondition({ variable: c.variable, operator: c.operator as never, argument: c.argument ?? null }, conditionContext),
  );
  if (!holds)
    return { eligible: false, reason: 'target_conditions_not_met', message: 'The target conditions do not hold for the recipient' };
  return { eligible: true };
}
