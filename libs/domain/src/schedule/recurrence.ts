import { Temporal } from 'temporal-polyfill';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** One repeat rule as the API takes it (null fields take the defaults documented in ADR 0141). */
export interface RepeatRule {
  frequency: 'hourly' | 'daily' | 'weekly' | 'monthly';
  interval: number;
  days: readonly Weekday[] | null;
  day_of_month: number | null;
  hours: number | null;
  minutes: number | null;
}

/** What decides when a schedule fires, independent of where its recipient lives. */
export interface Recurrence {
  repeats: readonly RepeatRule[];
  /** One-off (no repeats): the instant. With repeats: nothing fires before it. */
  scheduledAt: string | null;
  /** Nothing fires after it. */
  endingAt: string | null;
  /** Where intervals count from (scheduled_at, else when the schedule was created). */
  anchor: string;
}

/**
 * One occurrence. `local` (the wall-clock date-time the rules name, `YYYY-MM-DDTHH:mm`) is its
 * identity within a schedule; `at` is the instant it fires. They differ from a plain conversion
 * only in a DST gap, where the occurrence fires at the first instant after the gap.
 */
export interface Occurrence {
  local: string;
  at: string;
  /** `gap`: the local time does not exist that day and the occurrence moved to the gap's end. */
  adjusted: 'gap' | null;
}

export interface OccurrenceWindow {
  /** Occurrences firing before this instant are left out. */
  notBefore: string;
  /** Occurrences whose local date-time is at or before this one are left out (already fired). */
  afterLocal: string | null;
  /** At most this many. */
  limit: number;
  /** Occurrences firing after this instant are left out (ending_at applies anyway). */
  until?: string;
}

/** How far ahead a search looks for the next occurrence before it gives up (rules that never match). */
const SEARCH_DAYS = 366 * 8;

function assertTimeZone(timeZone: string): void {
  // Throws RangeError for a zone Temporal does not know: callers pass validated zones only.
  Temporal.Now.zonedDateTimeISO(timeZone);
}

/**
 * The instant a local date-time names in a zone. In the hour repeated when clocks go back, the
 * first of the two (the earlier offset): each local date-time fires once. In a gap (clocks go
 * forward), the transition itself: the first instant that exists after the skipped wall time.
 */
export function resolveLocal(local: Temporal.PlainDateTime, timeZone: string): { at: Temporal.Instant; adjusted: 'gap' | null } {
  const earlier = local.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (earlier.toPlainDateTime().equals(local)) return { at: earlier.toInstant(), adjusted: null };
  const transition = earlier.getTimeZoneTransition('next');
  if (!transition) throw new Error(`no transition after a gap at ${local.toString()} in ${timeZone}`);
  return { at: transition.toInstant(), adjusted: 'gap' };
}

const mod = (a: number, n: number) => ((a % n) + n) % n;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** `THH:mm` of each minute of a day (a key is built for every time a rule names). */
const TIMES = Array.from({ length: 24 * 60 }, (_, minute) => `T${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`);

/**
 * A calendar date as plain numbers. Walking day by day through dates is calendar arithmetic
 * (Date.UTC counts days, no zone is involved); only turning a local date-time into an instant
 * needs the zone, and that is Temporal's job (resolveLocal).
 */
interface Day {
  y: number;
  m: number;
  d: number;
  /** Days since 1970-01-01. */
  epoch: number;
  weekday: Weekday;
  daysInMonth: number;
  key: string;
}

function dayAt(epoch: number): Day {
  const date = new Date(epoch * 86_400_000);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + 1;
  const d = date.getUTCDate();
  return {
    y,
    m,
    d,
    epoch,
    weekday: WEEKDAYS[mod(epoch - 4, 7)],
    daysInMonth: new Date(Date.UTC(y, m, 0)).getUTCDate(),
    key: `${pad(y, 4)}-${pad(m)}-${pad(d)}`,
  };
}

const dayOf = (date: Temporal.PlainDate) => dayAt(Date.UTC(date.year, date.month - 1, date.day) / 86_400_000);
/** The day of a local date-time key (`YYYY-MM-DDTHH:mm`, as occurrences name themselves). */
const dayOfKey = (key: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(key);
  return m ? dayAt(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000) : dayOf(Temporal.PlainDate.from(key.slice(0, 10)));
};
const mondayEpoch = (day: Day) => day.epoch - WEEKDAYS.indexOf(day.weekday);

/** The local times (minutes after midnight) one rule names on one date. */
function timesOn(rule: RepeatRule, day: Day, anchor: Day, anchorHour: number): number[] {
  const interval = Math.max(1, rule.interval);
  const minute = rule.minutes ?? 0;
  switch (rule.frequency) {
    case 'hourly': {
      if (rule.days && !rule.days.includes(day.weekday)) return [];
      // Wall-clock hours counted from the anchor's hour: every interval-th hour of the local clock.
      const base = (day.epoch - anchor.epoch) * 24 - anchorHour;
      const out: number[] = [];
      for (let hour = 0; hour < 24; hour++) if (mod(base + hour, interval) === 0) out.push(hour * 60 + minute);
      return out;
    }
    case 'daily':
      if (rule.days && !rule.days.includes(day.weekday)) return [];
      return mod(day.epoch - anchor.epoch, interval) === 0 ? [(rule.hours ?? 0) * 60 + minute] : [];
    case 'weekly': {
      const days = rule.days ?? [anchor.weekday];
      if (!days.includes(day.weekday)) return [];
      const weeks = (mondayEpoch(day) - mondayEpoch(anchor)) / 7;
      return mod(weeks, interval) === 0 ? [(rule.hours ?? 0) * 60 + minute] : [];
    }
    case 'monthly': {
      if (rule.days && !rule.days.includes(day.weekday)) return [];
      const months = (day.y - anchor.y) * 12 + (day.m - anchor.m);
      if (mod(months, interval) !== 0) return [];
      // A day the month does not have (31 in April, 29-31 in February) is the month's last day.
      const wanted = Math.min(rule.day_of_month ?? anchor.d, day.daysInMonth);
      return day.d === wanted ? [(rule.hours ?? 0) * 60 + minute] : [];
    }
  }
}

/** A local date-time resolved in a zone, as the hot loop wants it. */
interface Resolved {
  ms: number;
  at: string;
  adjusted: 'gap' | null;
}

/**
 * Resolutions remembered by (zone, local date-time): schedules of many recipients name the same
 * wall times in the same zones, and zone rules do not change while the process runs.
 */
const resolved = new Map<string, Resolved>();
const RESOLVED_MAX = 100_000;

function resolveCached(day: Day, minute: number, key: string, timeZone: string): Resolved {
  const cacheKey = `${timeZone}|${key}`;
  let hit = resolved.get(cacheKey);
  if (!hit) {
    const { at, adjusted } = resolveLocal(new Temporal.PlainDateTime(day.y, day.m, day.d, Math.floor(minute / 60), minute % 60), timeZone);
    hit = { ms: at.epochMilliseconds, at: at.toString(), adjusted };
    if (resolved.size >= RESOLVED_MAX) resolved.clear();
    resolved.set(cacheKey, hit);
  }
  return hit;
}

const knownZones = new Set<string>();

/**
 * An instant's epoch milliseconds. The ISO forms the service writes itself (toISOString, an
 * offset, at most millisecond digits) are read by Date.parse, which reads them exactly as
 * Temporal does at a fraction of the cost (the firer reads four per schedule); anything else
 * goes through Temporal.
 */
const PLAIN_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const instantMs = (iso: string) => (PLAIN_INSTANT.test(iso) ? Date.parse(iso) : Temporal.Instant.from(iso).epochMilliseconds);

/** A wall-clock date-time to the minute (seconds never matter to an occurrence). */
interface Wall {
  y: number;
  m: number;
  d: number;
  hour: number;
  minute: number;
}

/**
 * The wall time of an instant in a zone, to the minute, remembered by (zone, minute): the firer
 * asks it three times per schedule, and schedules created or fired in the same minute ask the
 * same questions. The zone's rules are Temporal's; an offset that is not a whole number of
 * minutes (local mean time before 1900 in some zones) is not remembered, as the minute's answer
 * could then differ from the instant's.
 */
const walls = new Map<string, Wall>();
const WALLS_MAX = 100_000;

function localOf(ms: number, timeZone: string): Wall {
  const minuteMs = Math.floor(ms / 60_000) * 60_000;
  const cacheKey = `${timeZone}|${minuteMs}`;
  const hit = walls.get(cacheKey);
  if (hit) return hit;
  const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone);
  const wall = { y: zoned.year, m: zoned.month, d: zoned.day, hour: zoned.hour, minute: zoned.minute };
  if (zoned.offsetNanoseconds % 60_000_000_000 === 0) {
    if (walls.size >= WALLS_MAX) walls.clear();
    walls.set(cacheKey, wall);
  }
  return wall;
}

const keyOf = (w: Wall) => `${pad(w.y, 4)}-${pad(w.m)}-${pad(w.d)}T${pad(w.hour)}:${pad(w.minute)}`;
const dayOfWall = (w: Wall) => dayAt(Date.UTC(w.y, w.m - 1, w.d) / 86_400_000);

/** A wall time some hours earlier, as plain calendar arithmetic (a wall time has no zone). */
function hoursBefore(w: Wall, hours: number): Wall {
  const date = new Date(Date.UTC(w.y, w.m - 1, w.d, w.hour, w.minute) - hours * 3_600_000);
  return {
    y: date.getUTCFullYear(),
    m: date.getUTCMonth() + 1,
    d: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
  };
}

/**
 * The occurrences of a recurrence in a time zone, in order, within a window. Several rules are
 * a union (a local date-time named by two rules is one occurrence). Two local date-times that
 * fire at the same instant (a gap-shifted one and the real one after the gap) are one
 * occurrence, the earlier local date-time.
 */
export function occurrences(recurrence: Recurrence, timeZone: string, window: OccurrenceWindow): Occurrence[] {
  if (!knownZones.has(timeZone)) {
    assertTimeZone(timeZone);
    knownZones.add(timeZone);
  }
  if (window.limit <= 0) return [];
  const bounds = [recurrence.endingAt, window.until ?? null].filter((x): x is string => x !== null).map(instantMs);
  const last = bounds.length ? Math.min(...bounds) : Infinity;
  const start = recurrence.scheduledAt ? instantMs(recurrence.scheduledAt) : -Infinity;
  const lowest = Math.max(start, instantMs(window.notBefore));

  if (recurrence.repeats.length === 0) {
    if (!recurrence.scheduledAt || start < lowest || start > last) return [];
    const key = keyOf(localOf(start, timeZone));
    if (window.afterLocal !== null && key <= window.afterLocal) return [];
    return [{ local: key, at: Temporal.Instant.fromEpochMilliseconds(start).toString(), adjusted: null }];
  }

  const anchorLocal = localOf(instantMs(recurrence.anchor), timeZone);
  const anchor = dayOfWall(anchorLocal);
  const lowestLocal = localOf(lowest, timeZone);
  let first = dayOfWall(lowestLocal).epoch;
  if (window.afterLocal !== null) first = Math.max(first, dayOfKey(window.afterLocal).epoch);
  // One day earlier: a gap at midnight can move the previous day's last time onto this day.
  first -= 1;
  const lastDay = last === Infinity ? Infinity : dayOfWall(localOf(last, timeZone)).epoch + 1;

  // Local times well before the window (the largest DST shift is two hours) or already fired
  // are passed over unresolved; only the one just before the first kept is resolved, for the
  // same-instant rule below.
  const skipBelow = keyOf(hoursBefore(lowestLocal, 3));
  const found: Occurrence[] = [];
  let previous: number | null = null;
  let passedOver: { day: Day; minute: number; key: string } | null = null;
  for (let epoch = first; epoch < first + SEARCH_DAYS && epoch <= lastDay && found.length < window.limit; epoch++) {
    const day = dayAt(epoch);
    const minutes =
      recurrence.repeats.length === 1
        ? timesOn(recurrence.repeats[0], day, anchor, anchorLocal.hour)
        : [...new Set(recurrence.repeats.flatMap((rule) => timesOn(rule, day, anchor, anchorLocal.hour)))].sort((a, b) => a - b);
    for (const minute of minutes) {
      if (found.length >= window.limit) break;
      const key = day.key + (TIMES[minute] ?? `T${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`);
      if (key < skipBelow || (window.afterLocal !== null && key <= window.afterLocal)) {
        passedOver = { day, minute, key };
        continue;
      }
      if (passedOver) previous = resolveCached(passedOver.day, passedOver.minute, passedOver.key, timeZone).ms;
      passedOver = null;
      const hit = resolveCached(day, minute, key, timeZone);
      // A gap-shifted time and the real time after the gap fire at the same instant: they are one
      // occurrence, the first (whatever the window, so that the choice never changes).
      if (previous === hit.ms) continue;
      previous = hit.ms;
      if (hit.ms < lowest || hit.ms > last) continue;
      found.push({ local: key, at: hit.at, adjusted: hit.adjusted });
    }
  }
  return found;
}

/** The first occurrence within the window, if any. */
export function nextOccurrence(recurrence: Recurrence, timeZone: string, window: Omit<OccurrenceWindow, 'limit'>): Occurrence | null {
  return occurrences(recurrence, timeZone, { ...window, limit: 1 })[0] ?? null;
}

/** The wall time of an instant in a zone, with its offset: `2026-03-08T03:00:00-04:00`. */
export function wallTime(at: string, timeZone: string): string {
  return Temporal.Instant.from(at).toZonedDateTimeISO(timeZone).toString({ timeZoneName: 'never', smallestUnit: 'second' });
}

/** Whether Temporal knows the zone. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    assertTimeZone(timeZone);
    return true;
  } catch {
    return false;
  }
}
