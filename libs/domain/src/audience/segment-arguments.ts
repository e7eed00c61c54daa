import type { AudienceSegmentT } from '@notify/contracts';
import { asList, looksLikeRelativeTime, namesVariable, relativeOffset } from '../preferences/conditions';
import { FieldError } from '../shared/errors';
import { TIME_COMPARISONS } from './segments';

const HINT = 'now, 30_days_ago, 2_weeks_from_now, -3 days or +2 hours (units: second, minute, hour, day, week), or an absolute time';

/** The parts of an argument that an operator reads as times; none when it reads no time. */
function timeParts(operator: string, argument: string): unknown[] {
  if (operator === 'is_timestamp_between') return asList(argument);
  return TIME_COMPARISONS.has(operator) ? [argument] : [];
}

/**
 * Arguments of segment conditions that have the shape of a relative time but are not one the
 * conditions read (`banana_days_ago`, `3 months ago`): such a condition would hold for nobody,
 * silently. Only where the operator reads its argument as a time (ADR 0265): for `equal_to` and
 * the others, `30_days_ago` is just text. Fields are named from `path` (`audience.segments`).
 */
export function segmentArgumentErrors(segments: readonly AudienceSegmentT[], path: string): FieldError[] {
  return segments.flatMap((segment, s) =>
    segment.conditions.flatMap((c, i) => {
      const wrong = timeParts(c.operator, c.argument ?? '').filter(
        (part) =>
          typeof part === 'string' && !namesVariable(part.trim()) && looksLikeRelativeTime(part) && relativeOffset(part) === undefined,
      );
      return wrong.map((part) => ({
        field: `${path}.${s}.conditions.${i}.argument`,
        message: `"${String(part).trim()}" is not a valid relative time: use ${HINT}`,
        type: 'invalid_value',
      }));
    }),
  );
}
