import { toValue } from 'liquidjs';
import { TemplateFailure } from '../errors';

/** liquidjs passes `name: value` filter arguments as `[name, value]` pairs among the positional ones. */
export interface FilterArgs {
  positional: unknown[];
  named: Record<string, unknown>;
}

/**
 * Values alone cannot tell `name: value` from a positional array that happens to look like one,
 * so the filter's own token says which arguments were written as `name: value`.
 */
export function splitArgs(token: { args: unknown[] } | undefined, args: unknown[]): FilterArgs {
  const positional: unknown[] = [];
  const named: Record<string, unknown> = Object.create(null);
  args.forEach((arg, i) => {
    const written = token?.args[i];
    if (Array.isArray(written) && Array.isArray(arg) && typeof arg[0] === 'string') named[arg[0]] = toValue(arg[1]);
    else positional.push(toValue(arg));
  });
  return { positional, named };
}

export function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new TemplateFailure('template_render', `${what} must be a string`);
  return value;
}

/** A number from a number or a numeric string; anything else is not a number. */
export function toNumber(value: unknown): number | undefined {
  const v = toValue(value);
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
