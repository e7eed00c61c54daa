import type { AudienceSegmentT } from '@notify/contracts';
import { evaluateCondition, lookup, relativeOffset, toTime } from '../preferences/conditions';

/**
 * Dynamic audience membership (issue 17, ADR 0138). A segment holds when all its conditions do;
 * an audience holds a user when any segment does. A condition may depend on the time it is
 * evaluated at (`recipient.created_at greater_than 30_days_ago`, `is_timestamp_before_now`): such
 * a condition holds over an interval of evaluation times, computed here from the user's
 * properties alone. A segment's membership is then one window [from, until) of times (open
 * bounds undefined), and the read model stores those windows, so membership stays right as time
 * passes without re-evaluating anyone.
 */
export interface MembershipWindow {
  /** Index of the segment that holds. */
  segment: number;
  /** First instant (ms since the epoch) the segment holds; undefined: always has. */
  from?: number;
  /** First instant it no longer holds; undefined: never stops. */
  until?: number;
}

type SegmentCondition = AudienceSegmentT['conditions'][number];

/** A bound of the evaluation time that a time-dependent condition imposes, or whether it holds regardless. */
type Bound = { from?: number; until?: number } | boolean;

const DAY = 86_400_000;
/** Time-independent conditions never read the evaluation time; any fixed instant will do. */
const ANY_TIME = '1970-01-01T00:00:00.000Z';

/** An absolute time of a property value (a relative one, such as `now`, has none). */
const absolute = (value: unknown): number | undefined => (relativeOffset(value) === undefined ? toTime(value, ANY_TIME) : undefined);

const startOfNextDay = (t: number) => Math.floor(t / DAY) * DAY + DAY;

/**
 * Operators that compare the property with their argument read as a time, so a relative time
 * (`30_days_ago`) is measured from the evaluation time; `is_timestamp_between` does so per bound.
 */
export const TIME_COMPARISONS: ReadonlySet<string> = new Set([
  'greater_than',
  'greater_than_or_equal_to',
  'less_than',
  'less_than_or_equal_to',
  'is_timestamp_on_or_after',
  'is_timestamp_before',
  'is_timestamp_on_or_after_date',
  'is_timestamp_before_date',
]);

/** Two-element list of an `is_timestamp_between` argument. */
function bounds(argument: string | null | undefined): [string, string] | undefined {
  if (!argument) return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(argument);
  } catch {
    parts = argument.split(',').map((p) => p.trim());
  }
  return Array.isArray(parts) && parts.length === 2 && parts.every((p) => typeof p === 'string' || typeof p === 'number')
    ? [String(parts[0]), String(parts[1])]
    : undefined;
}

/**
 * The evaluation times at which a condition holds, when they depend on the time; undefined when
 * the condition does not (it is then evaluated once, at any time).
 */
function timeBound(c: SegmentCondition, value: unknown): Bound | undefined {
  const op = c.operator;
  if (op === 'is_timestamp_before_now' || op === 'is_timestamp_on_or_after_now') {
    const t = absolute(value);
    if (t === undefined) return false;
    return op === 'is_timestamp_before_now' ? { from: t + 1 } : { until: t + 1 };
  }
  if (op === 'is_timestamp_between') {
    const pair = bounds(c.argument);
    if (!pair || !pair.some((b) => relativeOffset(b) !== undefined)) return undefined;
    const t = absolute(value);
    if (t === undefined) return false;
    const [low, high] = pair;
    const out: { from?: number; until?: number } = {};
    // low <= t: with low = now + o, holds while now <= t - o.
    const lo = relativeOffset(low);
    if (lo !== undefined) out.until = t - lo + 1;
    else if (!(absolute(low) !== undefined && absolute(low)! <= t)) return false;
    // t <= high: with high = now + o, holds once now >= t - o.
    const hi = relativeOffset(high);
    if (hi !== undefined) out.from = t - hi;
    else if (!(absolute(high) !== undefined && t <= absolute(high)!)) return false;
    return out;
  }
  const offset = relativeOffset(c.argument);
  if (offset === undefined) return undefined;
  if (!TIME_COMPARISONS.has(op)) return undefined;
  const t = absolute(value);
  if (t === undefined) return false;
  // With a = now + offset:
  switch (op) {
    case 'greater_than': // t > a   <=> now < t - offset
      return { until: t - offset };
    case 'greater_than_or_equal_to': // t >= a <=> now <= t - offset
    case 'is_timestamp_on_or_after':
      return { until: t - offset + 1 };
    case 'less_than': // t < a <=> now > t - offset
    case 'is_timestamp_before':
      return { from: t - offset + 1 };
    case 'less_than_or_equal_to': // t <= a <=> now >= t - offset
      return { from: t - offset };
    case 'is_timestamp_on_or_after_date': // day(t) >= day(a) <=> a < start of the day after t
      return { until: startOfNextDay(t) - offset };
    default: // is_timestamp_before_date: day(t) < day(a) <=> a >= start of the day after t
      return { from: startOfNextDay(t) - offset };
  }
}

/**
 * Whom a segment condition is about: the user (`recipient.*`) or the tenant of the run or member
 * (`tenant.*`). The two sides are evaluated apart (ADR 0202): the users projection keeps the
 * user side, the tenants projection the tenant side, and a (user, tenant) pair is a member by
 * a segment when both of its sides hold.
 */
export type SegmentSide = 'recipient' | 'tenant';
export const sideOf = (property: string): SegmentSide => (property.startsWith('tenant.') ? 'tenant' : 'recipient');

/**
 * A tenant named by a run (or a membership) that was never set, or was deleted, as conditions see
 * `tenant` (ADR 0232): its id alone, so `tenant.id` equals it and every other property is missing
 * (`not_exists` holds, `equal_to` does not). The engine's run variables and the dynamic audiences'
 * tenant side both use it.
 */
export const tenantNeverSet = (id: string): Record<string, unknown> => ({ id });

/** Indexes of the segments that have conditions on the tenant. */
export const tenantSegments = (segments: readonly AudienceSegmentT[]): number[] =>
  segments.flatMap((s, i) => (s.conditions.some((c) => sideOf(c.property) === 'tenant') ? [i] : []));

/**
 * The windows of evaluation time in which one side of the segments holds, one per segment that
 * can hold; empty: never. `variables` holds that side (`recipient` = the user as the engine sees
 * it; `tenant` = the tenant, or null for none). The other side's conditions are left out: a
 * segment with none on this side holds always on it.
 */
export function membershipWindows(
  segments: readonly AudienceSegmentT[],
  variables: Record<string, unknown>,
  side: SegmentSide = 'recipient',
): MembershipWindow[] {
  const windows: MembershipWindow[] = [];
  segments.forEach((segment, index) => {
    let from: number | undefined;
    let until: number | undefined;
    for (const c of segment.conditions) {
      if (sideOf(c.property) !== side) continue;
      const value = lookup(variables, c.property);
      const bound = timeBound(c, value);
      const holds =
        bound === undefined
          ? evaluateCondition({ variable: c.property, operator: c.operator, argument: c.argument ?? null }, { variables, now: ANY_TIME })
          : bound;
      if (holds === false) return;
      if (holds === true) continue;
      if (holds.from !== undefined) from = from === undefined ? holds.from : Math.max(from, holds.from);
      if (holds.until !== undefined) until = until === undefined ? holds.until : Math.min(until, holds.until);
    }
    if (from !== undefined && until !== undefined && from >= until) return;
    windows.push({ segment: index, from, until });
  });
  return windows;
}

/** Whether a window holds at an instant. */
export const windowHolds = (w: MembershipWindow, at: number) =>
  (w.from === undefined || w.from <= at) && (w.until === undefined || at < w.until);

/**
 * Whether a user is a member in a tenant's context (null: none) at an instant: some segment holds
 * on both sides. `userWindows` and `tenantWindows` are `membershipWindows` of the two sides; the
 * read models store the tenant side only for `tenantSegments` (on the others it always holds).
 */
export function pairHolds(userWindows: readonly MembershipWindow[], tenantWindows: readonly MembershipWindow[], at: number): boolean {
  return userWindows.some((u) => windowHolds(u, at) && tenantWindows.some((t) => t.segment === u.segment && windowHolds(t, at)));
}

/**
 * The unbroken stretch of time around `at` in which any of a membership's windows holds: from the
 * start of the first to the end of the last of the windows that hold at `at` or that chain to
 * them by touching or overlapping (a user in two segments in turn stays a member throughout).
 * Bounds undefined: open. Undefined when no window holds at `at`.
 */
export function membershipSpan(
  windows: readonly Pick<MembershipWindow, 'from' | 'until'>[],
  at: number,
): Pick<MembershipWindow, 'from' | 'until'> | undefined {
  const nonEmpty = windows.filter((w) => w.from === undefined || w.until === undefined || w.from < w.until);
  const holding = nonEmpty.filter((w) => windowHolds({ segment: 0, ...w }, at));
  if (holding.length === 0) return undefined;
  let from = holding.some((w) => w.from === undefined) ? undefined : Math.min(...holding.map((w) => w.from!));
  let until = holding.some((w) => w.until === undefined) ? undefined : Math.max(...holding.map((w) => w.until!));
  for (let grown = true; grown;) {
    grown = false;
    for (const w of nonEmpty) {
      const startsInside = from === undefined || w.until === undefined || w.until >= from;
      const endsInside = until === undefined || w.from === undefined || w.from <= until;
      if (!startsInside || !endsInside) continue;
      if (from !== undefined && (w.from === undefined || w.from < from)) [from, grown] = [w.from, true];
      if (until !== undefined && (w.until === undefined || w.until > until)) [until, grown] = [w.until, true];
    }
  }
  return { from, until };
}
