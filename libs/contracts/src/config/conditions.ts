import { z } from 'zod';

export const ConditionOperator = z.enum([
  'equal_to',
  'not_equal_to',
  'greater_than',
  'less_than',
  'greater_than_or_equal_to',
  'less_than_or_equal_to',
  'contains',
  'not_contains',
  'contains_all',
  'not_contains_all',
  'is_timestamp_before',
  'is_timestamp_on_or_after',
  'is_timestamp_between',
  'is_between',
  'empty',
  'not_empty',
  'exists',
  'not_exists',
  'is_timestamp',
  'is_timestamp_before_now',
  'is_timestamp_on_or_after_now',
  'is_audience_member',
  'is_not_audience_member',
]);

/** Operators that look at the variable alone; every other one compares it with an argument. */
export const UNARY_OPERATORS: ReadonlySet<string> = new Set(['empty', 'not_empty', 'exists', 'not_exists', 'is_timestamp', 'is_timestamp_before_now', 'is_timestamp_on_or_after_now']);

export const Condition = z
  .strictObject({
    variable: z.string().min(1).max(1000),
    operator: ConditionOperator,
    argument: z.string().max(10_000).nullable().optional(),
  })
  .superRefine((c, ctx) => {
    if (!UNARY_OPERATORS.has(c.operator) && (c.argument === undefined || c.argument === null || c.argument === '')) {
      ctx.addIssue({ code: 'custom', path: ['argument'], message: `is required for the ${c.operator} operator` });
    }
  });

const AllMatch = z.strictObject({ all: z.array(Condition).min(1).max(50) });
const AnyMatch = z.strictObject({ any: z.array(z.union([Condition, AllMatch])).min(1).max(50) });

/** `{all: [...]}` or `{any: [condition | {all: [...]}]}`. */
export const ConditionGroup = z.union([AllMatch, AnyMatch]);
export type ConditionGroupT = z.infer<typeof ConditionGroup>;

export const Duration = z.strictObject({
  unit: z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']),
  value: z.number().int().min(1).max(100_000),
});

const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time of day such as 09:00 or 17:30:00');
const Day = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);

export const SendWindow = z.strictObject({ day: Day, type: z.enum(['send', 'do_not_send']), from: TimeOfDay.nullable().optional(), until: TimeOfDay.nullable().optional() });

/** One window per day of the week, each day once. */
export const SendWindows = z
  .array(SendWindow)
  .max(7)
  .superRefine((windows, ctx) => {
    if (windows.length === 0) return;
    const seen = new Set<string>();
    windows.forEach((w, i) => {
      if (seen.has(w.day)) ctx.addIssue({ code: 'custom', path: [i, 'day'], message: `${w.day} appears more than once` });
      seen.add(w.day);
      if (w.from && w.until && w.from >= w.until) ctx.addIssue({ code: 'custom', path: [i, 'until'], message: 'must be later than from' });
    });
    if (seen.size !== 7) ctx.addIssue({ code: 'custom', path: [], message: 'must include one send window per day of the week' });
  });
