import { ConditionContext, ConditionEvaluation, explainCondition } from '../../preferences/conditions';

export interface ConditionLike {
  variable: string;
  operator: string;
  argument?: string | null;
}

export type ConditionGroup = { all: ConditionLike[] } | { any: (ConditionLike | { all: ConditionLike[] })[] } | ConditionLike[];

/** `{all}` needs every condition, `{any}` one (each member a condition or an `{all}` group); absent = true. */
export function conditionGroupHolds(group: ConditionGroup | null | undefined, holds: (c: ConditionLike) => boolean): boolean {
  if (!group) return true;
  if (Array.isArray(group)) return group.every(holds);
  if ('all' in group) return group.all.every(holds);
  return group.any.some((member) => ('all' in member ? member.all.every(holds) : holds(member)));
}

/**
 * A group as it was evaluated (ADR 0219): whether it held, and each condition with what it
 * compared. Every condition is evaluated for the record (evaluation is pure), so the trace shows
 * all of them, not only those before the first that decided; `holds` is {@link conditionGroupHolds}'s.
 */
export interface ConditionGroupTrace<E> {
  holds: boolean;
  mode: 'all' | 'any';
  conditions: (E | { all: E[]; holds: boolean })[];
}

export function traceConditionGroup<E extends { result: boolean }>(
  group: ConditionGroup | null | undefined,
  evaluate: (c: ConditionLike) => E,
): ConditionGroupTrace<E> {
  if (!group) return { holds: true, mode: 'all', conditions: [] };
  if (Array.isArray(group) || 'all' in group) {
    const conditions = (Array.isArray(group) ? group : group.all).map(evaluate);
    return { holds: conditions.every((c) => c.result), mode: 'all', conditions };
  }
  const conditions = group.any.map((member) => {
    if (!('all' in member)) return evaluate(member);
    const all = member.all.map(evaluate);
    return { all, holds: all.every((c) => c.result) };
  });
  return { holds: conditions.some((c) => ('all' in c ? c.holds : c.result)), mode: 'any', conditions };
}

/** A group evaluated against a run's context, each condition with what it compared. */
export const explainConditionGroup = (
  group: ConditionGroup | null | undefined,
  context: ConditionContext,
): ConditionGroupTrace<ConditionEvaluation> => traceConditionGroup(group, (c) => explainCondition(c as never, context));

const AUDIENCE_OPERATORS = new Set(['is_audience_member', 'is_not_audience_member']);

/** The audience keys a group's conditions ask about: what must be looked up before it is evaluated. */
export function audienceKeysIn(group: ConditionGroup | null | undefined): string[] {
  if (!group) return [];
  const members = Array.isArray(group) ? group : 'all' in group ? group.all : group.any.flatMap((m) => ('all' in m ? m.all : [m]));
  const keys = members
    .filter((c) => AUDIENCE_OPERATORS.has(c.operator) && typeof c.argument === 'string' && c.argument !== '')
    .map((c) => c.argument as string);
  return [...new Set(keys)];
}
