import { object, subscriptions, tenant, user } from './data-lookups';
import { date, format_date_in_locale, format_datetime_in_locale, timezone } from './dates';
import type { Filter } from './filter-types';
import { hmac_sha256, md5, sha256 } from './hashing';
import { currency, format_number, rounded_currency } from './numbers';
import { compare_versions, from_json, from_markdown, intersect, pluralize, titlecase } from './text';
import { t } from './translate.filter';

/**
 * Knock's Liquid helpers, added to (or, for `date`, extending) the standard liquidjs filters.
 * `json` is liquidjs's own, which already matches Knock's.
 */
export const KNOCK_FILTERS: Record<string, Filter> = {
  timezone,
  date,
  format_date_in_locale,
  format_datetime_in_locale,
  format_number,
  currency,
  rounded_currency,
  from_json,
  pluralize,
  titlecase,
  from_markdown,
  intersect,
  compare_versions,
  md5,
  sha256,
  hmac_sha256,
  user,
  object,
  tenant,
  subscriptions,
  t,
};
