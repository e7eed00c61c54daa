import { toValue } from 'liquidjs';
import { TemplateFailure } from '../errors';

/** A canonical BCP 47 tag (`en_us` -> `en-US`), or undefined when it is not one. */
export function canonicalLocale(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  try {
    return Intl.getCanonicalLocales(value.trim().replace(/_/g, '-'))[0];
  } catch {
    return undefined;
  }
}

/** The locale asked for when it is a valid tag, else the fallback (the engine's default locale). */
export function localeOr(value: unknown, fallback: string): string {
  return canonicalLocale(value) ?? fallback;
}

export function assertTimeZone(value: unknown): string {
  if (typeof value !== 'string' || !value) throw new TemplateFailure('template_render', 'timezone must be a non-empty string');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw new TemplateFailure('template_render', `unknown timezone "${value}"`);
  }
  return value;
}

/**
 * Dates as liquidjs reads them: Date objects, ISO-8601 strings, numbers and digit strings as
 * Unix seconds, "now"/"today". Undefined when the value is not a date.
 */
export function toDate(value: unknown): Date | undefined {
  const v = toValue(value);
  let date: Date | undefined;
  if (v instanceof Date) date = new Date(v.getTime());
  else if (typeof v === 'number') date = new Date(v * 1000);
  else if (typeof v === 'string') {
    const s = v.trim();
    if (s === 'now' || s === 'today') date = new Date();
    else if (/^\d+$/.test(s)) date = new Date(Number(s) * 1000);
    else if (s) date = new Date(s);
  }
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

const NARROW_SPACES = /[\u202f\u2009]/g;

/** ICU puts narrow no-break spaces in times ("2:30 PM"); mail clients render them badly. */
export function plainSpaces(text: string): string {
  return text.replace(NARROW_SPACES, ' ');
}

/** Local wall-clock parts of a date in a time zone, and that zone's offset in minutes. */
export function zonedParts(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const offsetMinutes = Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  return { ...local, offsetMinutes };
}

export function zoneAbbreviation(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(date);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}
