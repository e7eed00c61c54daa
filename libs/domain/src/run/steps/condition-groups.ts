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
