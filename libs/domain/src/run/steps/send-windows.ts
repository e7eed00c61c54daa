export interface SendWindow {
  day: 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
  type: 'send' | 'do_not_send';
  from?: string | null;
  until?: string | null;
}

const DAYS: SendWindow['day'][] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

interface Local {
  day: SendWindow['day'];
  minutes: number;
  y: number;
  m: number;
  d: number;
}

function local(at: Date, timeZone: string): Local {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'long',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    day: parts.weekday.toLowerCase() as SendWindow['day'],
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
    y: Number(parts.year),
    m: Number(parts.month),
    d: Number(parts.day),
  };
}

const toMinutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

function allowed(windows: readonly SendWindow[], l: Local): boolean {
  const w = windows.find((x) => x.day === l.day);
  if (!w) return true;
  const from = w.from ? toMinutes(w.from) : 0;
  const until = w.until ? toMinutes(w.until) : 24 * 60;
  const inside = l.minutes >= from && l.minutes < until;
  return w.type === 'send' ? inside : !inside;
}

/**
 * The first instant at or after `now` when a message may be sent under the step's send windows,
 * in the recipient's time zone; `now` itself when it is allowed. Null when no window ever opens.
 */
export function nextSendTime(
  windows: readonly SendWindow[] | null | undefined,
  timeZone: string | null | undefined,
  now: Date,
): Date | null {
  if (!windows?.length) return now;
  const tz = sendWindowTimeZone(timeZone);
  if (allowed(windows, local(now, tz))) return now;
  // Look minute by minute is wasteful; windows change only at their boundaries, so check those.
  const start = Math.ceil(now.getTime() / 60_000) * 60_000;
  for (let t = start; t < now.getTime() + 8 * 86_400_000; t += 60_000) {
    const l = local(new Date(t), tz);
    const w = windows.find((x) => x.day === l.day);
    const boundaries = [0, w?.from ? toMinutes(w.from) : 0, w?.until ? toMinutes(w.until) : 0];
    if (!boundaries.includes(l.minutes)) {
      // jump to the next boundary of this local day, or the next local midnight
      const nextBoundary = [...boundaries, 24 * 60].filter((b) => b > l.minutes).sort((a, b) => a - b)[0];
      t += (nextBoundary - l.minutes - 1) * 60_000;
      continue;
    }
    if (allowed(windows, l)) return new Date(t);
  }
  return null;
}

/** The time zone send windows are read in: the recipient's `timezone` when it is one, else UTC. */
export const sendWindowTimeZone = (timeZone: string | null | undefined): string => (timeZone && isTimeZone(timeZone) ? timeZone : 'UTC');

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export { DAYS };
