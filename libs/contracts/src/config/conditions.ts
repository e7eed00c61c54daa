import { z } from 'zod';

export { Condition, ConditionGroup, ConditionOperator, UNARY_OPERATORS } from '../conditions';
export type { ConditionGroupT } from '../conditions';

export const Duration = z.strictObject({
  unit: z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']),
  value: z.number().int().min(1).max(100_000),
});

const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time of day such as 09:00 or 17:30:00');
const Day = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);

export const SendWindow = z.strictObject({
  day: Day,
  type: z.enum(['send', 'do_not_send']),
  from: TimeOfDay.nullable().optional(),
  until: TimeOfDay.nullable().optional(),
});

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
