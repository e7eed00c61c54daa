import { TemplateFailure } from '../errors';
import { stateOf } from '../render-state';
import { splitArgs, toNumber } from './args';
import type { Filter, FilterThis } from './filter-types';
import { localeOr } from './intl';

// Inputs that are not numbers come back unchanged: a template should not fail on odd data.

/** `{{ 10000 | format_number: "en" }}` -> `10,000`. */
export const format_number: Filter = function (value, ...args) {
  const n = toNumber(value);
  if (n === undefined) return value;
  const { positional, named } = splitArgs(this.token, args);
  const locale = localeOr(named.locale ?? positional[0], stateOf(this.context).limits.defaultLocale);
  return new Intl.NumberFormat(locale).format(n);
};

function formatCurrency(self: FilterThis, value: unknown, args: unknown[], rounded: boolean): unknown {
  const n = toNumber(value);
  if (n === undefined) return value;
  const { positional, named } = splitArgs(self.token, args);
  const code = named.currency ?? positional[0] ?? 'USD';
  const locale = localeOr(named.locale ?? positional[1], stateOf(self.context).limits.defaultLocale);
  if (typeof code !== 'string' || !/^[A-Za-z]{3}$/.test(code)) {
    throw new TemplateFailure('template_render', `currency must be a three-letter ISO 4217 code, got "${String(code)}"`);
  }
  const digits = rounded ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
  return new Intl.NumberFormat(locale, { style: 'currency', currency: code.toUpperCase(), ...digits }).format(n);
}

/** `{{ 10 | currency: "GBP", "en" }}` -> `£10.00`; USD when no currency is given. */
export const currency: Filter = function (value, ...args) {
  return formatCurrency(this, value, args, false);
};

/** `{{ 10.99 | rounded_currency: "GBP", "en" }}` -> `£11`. */
export const rounded_currency: Filter = function (value, ...args) {
  return formatCurrency(this, value, args, true);
};
