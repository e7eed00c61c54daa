export interface Duration {
  unit: 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months';
  value: number;
}

const MS: Record<Exclude<Duration['unit'], 'months'>, number> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};

/** The instant `duration` after `from` (calendar months, otherwise fixed lengths). */
export function addDuration(from: Date, duration: Duration): Date {
  if (duration.unit === 'months') {
    const d = new Date(from);
    d.setUTCMonth(d.getUTCMonth() + duration.value);
    return d;
  }
  return new Date(from.getTime() + duration.value * MS[duration.unit]);
}

export function durationMs(duration: Duration, from = new Date(0)): number {
  return addDuration(from, duration).getTime() - from.getTime();
}

/** Reads a dotted path (`data.remind_at`, `recipient.timezone`) from a variables object. */
export function readPath(variables: Record<string, unknown>, path: string): unknown {
  let value: unknown = variables;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A timestamp from data: ISO-8601 strings or unix seconds/milliseconds. */
export function toInstant(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e12 ? value * 1000 : value);
  if (typeof value === 'string' && value.trim() !== '') {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return new Date(t);
  }
  return undefined;
}
