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
