import { z } from 'zod';

/** Every condition operator of the public and management APIs. */
export const CONDITION_OPERATORS = [
  'equal_to',
  'not_equal_to',
  'greater_than',
  'less_than',
  'greater_than_or_equal_to',
  'less_than_or_equal_to',
  'contains',
  'not_contains',
  'empty',
  'not_empty',
  'exists',
  'not_exists',
  'contains_all',
  'not_contains_all',
  'is_timestamp',
  'is_not_timestamp',
  'is_timestamp_on_or_after',
  'is_timestamp_before',
  'is_timestamp_on_or_after_date',
  'is_timestamp_before_date',
  'is_timestamp_before_now',
  'is_timestamp_on_or_after_now',
  'is_timestamp_between',
  'is_between',
  'is_audience_member',
  'is_not_audience_member',
] as const;
export const ConditionOperator = z.enum(CONDITION_OPERATORS);

/** Operators that look at the variable alone; every other one compares it with an argument. */
export const UNARY_OPERATORS: ReadonlySet<string> = new Set([
  'empty',
  'not_empty',
  'exists',
  'not_exists',
  'is_timestamp',
  'is_not_timestamp',
  'is_timestamp_before_now',
  'is_timestamp_on_or_after_now',
]);

export const Condition = z
  .strictObject({
    variable: z.string().min(1).max(1000),
    operator: ConditionOperator,
    argument: z.string().max(10_000).nullable().default(null),
  })
  .superRefine((c, ctx) => {
    if (!UNARY_OPERATORS.has(c.operator) && (c.argument === null || c.argument === '')) {
      ctx.addIssue({ code: 'custom', path: ['argument'], message: `is required for the ${c.operator} operator` });
    }
  })
  .meta({ id: 'Condition' });
export type ConditionT = z.infer<typeof Condition>;

const AllMatch = z.strictObject({ all: z.array(Condition).min(1).max(50) });
const AnyMatch = z.strictObject({
  any: z
    .array(z.union([Condition, AllMatch]))
    .min(1)
    .max(50),
});

/** `{all: [...]}` or `{any: [condition | {all: [...]}]}`. */
export const ConditionGroup = z.union([AllMatch, AnyMatch]);
export type ConditionGroupT = z.infer<typeof ConditionGroup>;
