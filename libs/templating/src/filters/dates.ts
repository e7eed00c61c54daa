import { filters as builtins } from 'liquidjs';
import { TemplateFailure } from '../errors';
import { stateOf } from '../render-state';
import { splitArgs, optionalString } from './args';
import type { Filter } from './filter-types';
import { assertTimeZone, localeOr, plainSpaces, toDate, zoneAbbreviation, zonedParts } from './intl';

const STYLES = ['short', 'medium', 'long', 'full'] as const;
type Style = (typeof STYLES)[number];

function style(value: unknown, what: string): Style {
  if (value === undefined || value === null || value === '') return 'short';
  if (!STYLES.includes(value as Style)) {
    throw new TemplateFailure('template_render', `${what} must be one of ${STYLES.join(', ')}, got "${String(value)}"`);
  }
  return value as Style;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** `{{ timestamp | timezone: "America/New_York" }}` -> `2023-12-31T19:30:00-05:00`. */
export const timezone: Filter = function (value, zone) {
  const date = toDate(value);
  if (!date) return value;
  const tz = assertTimeZone(zone ?? 'UTC');
  const p = zonedParts(date, tz);
  const sign = p.offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${pad(Math.trunc(p.offsetMinutes / 60))}:${pad(p.offsetMinutes % 60)}`;
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${offset}`;
};

/**
 * liquidjs `date` (strftime), which already takes a time zone as second argument; Knock's
 * `%Z` prints the zone's abbreviation ("EST"), where liquidjs would print the zone name.
 * Without a zone the engine formats in UTC, whatever the server's zone.
 */
export const date: Filter = function (value, format, zone) {
  const tz = zone === undefined || zone === null || zone === '' ? undefined : zone;
  if (typeof tz === 'string') assertTimeZone(tz);
  let fmt = format;
  if (typeof fmt === 'string' && fmt.includes('%Z')) {
    const parsed = toDate(value);
    const name = typeof tz === 'string' ? tz : tz === undefined ? 'UTC' : undefined;
    if (parsed && name) fmt = fmt.replace(/%Z/g, zoneAbbreviation(parsed, name).replace(/%/g, '%%'));
  }
  return (builtins.date as Filter).call(this, value, fmt, tz);
};

function localized(this: ThisParameterType<Filter>, args: unknown[]) {
  const { positional, named } = splitArgs(this.token, args);
  const limits = stateOf(this.context).limits;
  return { positional, named, locale: localeOr(named.locale ?? positional[0], limits.defaultLocale) };
}

function timeZoneArg(value: unknown): string {
  const zone = optionalString(value, 'timezone');
  return zone ? assertTimeZone(zone) : 'UTC';
}

/** `{{ timestamp | format_date_in_locale: "en-GB", "long" }}` -> `31 December 2023`. Optional zone (default UTC). */
export const format_date_in_locale: Filter = function (value, ...args) {
  const { positional, named, locale } = localized.call(this, args);
  const date = toDate(value);
  if (!date) return value;
  const dateStyle = style(named.date_format ?? positional[1], 'date_format');
  const timeZone = timeZoneArg(named.timezone ?? positional[2]);
  return plainSpaces(new Intl.DateTimeFormat(locale, { dateStyle, timeZone }).format(date));
};

/** `{{ timestamp | format_datetime_in_locale: "en-GB", "medium", "short" }}` -> `31 Dec 2023, 14:30`. */
export const format_datetime_in_locale: Filter = function (value, ...args) {
  const { positional, named, locale } = localized.call(this, args);
  const date = toDate(value);
  if (!date) return value;
  const dateStyle = style(named.date_format ?? positional[1], 'date_format');
  const timeStyle = style(named.time_format ?? positional[2], 'time_format');
  const timeZone = timeZoneArg(named.timezone ?? positional[3]);
  return plainSpaces(new Intl.DateTimeFormat(locale, { dateStyle, timeStyle, timeZone }).format(date));
};
