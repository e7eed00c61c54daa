import type { ConditionT } from '@notify/contracts';

export type Condition = ConditionT;

export interface ConditionContext {
  /** The run's variables: `recipient`, `actor`, `data`, `tenant`, `vars`, ... */
  variables: Record<string, unknown>;
  /** Evaluation time (ISO 8601); relative timestamps are measured from it. */
  now: string;
  /** Keys of the audiences the recipient belongs to. */
  audiences?: readonly string[];
}

/** Arguments that name a variable (`data.dino`) are read from the run; anything else is literal. */
const VARIABLE_ROOTS = /^(recipient|actor|data|tenant|vars|workflow|refs|message|run|event)\.[^\s]+$/;

export function lookup(variables: Record<string, unknown>, path: string): unknown {
  let current: unknown = variables;
  for (const part of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current) && /^\d+$/.test(part)) current = current[Number(part)];
    else if (typeof current === 'object') current = (current as Record<string, unknown>)[part];
    else return undefined;
  }
  return current;
}

/** Whether an argument names a variable (read from the run, and only if missing taken literally). */
export const namesVariable = (argument: string): boolean => VARIABLE_ROOTS.test(argument);

function resolveArgument(argument: string | null, ctx: ConditionContext): unknown {
  if (argument === null) return null;
  if (namesVariable(argument)) {
    const value = lookup(ctx.variables, argument);
    if (value !== undefined) return value;
  }
  return argument;
}

const isNumeric = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));

function equal(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return String(a) === String(b);
}

const UNITS: Record<string, number> = { second: 1e3, minute: 6e4, hour: 36e5, day: 864e5, week: 6048e5 };

/**
 * The offset from the evaluation time that a relative time names, in ms: `now`, `-7 days`,
 * `+2 hours`, `3 days ago`, or `30_days_ago` / `2_weeks_from_now`; undefined for anything else.
 */
export function relativeOffset(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (s === 'now') return 0;
  const spaced = /^([+-]?\d+)\s*(second|minute|hour|day|week)s?(\s+ago)?$/i.exec(s);
  if (spaced) return Number(spaced[1]) * (spaced[3] ? -1 : 1) * UNITS[spaced[2].toLowerCase()];
  const joined = /^(\d+)_(second|minute|hour|day|week)s?_(ago|from_now)$/i.exec(s);
  if (joined) return Number(joined[1]) * (joined[3].toLowerCase() === 'ago' ? -1 : 1) * UNITS[joined[2].toLowerCase()];
  return undefined;
}

/** A number followed by a unit of time, those relativeOffset reads and the usual others (`3 months`, `30days`, `1.5 h`). */
const NUMBER_AND_UNIT =
  /^[+-]?\d+(\.\d+)?[\s_]*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|mons?|months?|y|yrs?|years?)$/i;

/**
 * Whether a string has the shape of a relative time, readable by relativeOffset or not: it ends
 * in `ago` or `from now` (`from_now`), is a number with a unit of time, or is a word for the
 * present (`now`, `today`, ...). An absolute time, a number or other text has none (ADR 0265).
 */
export function looksLikeRelativeTime(value: string): boolean {
  const s = value.trim();
  return /(^|[\s_])(ago|from[\s_]+now)$/i.test(s) || NUMBER_AND_UNIT.test(s) || /^(now|today|yesterday|tomorrow)$/i.test(s);
}

/** Milliseconds since the epoch for ISO timestamps, unix seconds or ms, or a relative time (relativeOffset) from `now`. */
export function toTime(value: unknown, now: string): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  const offset = relativeOffset(s);
  if (offset !== undefined) return Date.parse(now) + offset;
  if (/^\d+$/.test(s)) return toTime(Number(s), now);
  if (!/^\d{4}-\d{2}-\d{2}/.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10);

function compare(a: unknown, b: unknown, now: string): number | undefined {
  if (isNumeric(a) && isNumeric(b)) return Number(a) - Number(b);
  const ta = toTime(a, now);
  const tb = toTime(b, now);
  return ta !== undefined && tb !== undefined ? ta - tb : undefined;
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

function contains(haystack: unknown, needle: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.some((h) => equal(h, needle));
  if (typeof haystack === 'string') return needle !== null && needle !== undefined && haystack.includes(String(needle));
  if (haystack && typeof haystack === 'object') return typeof needle === 'string' && needle in haystack;
  return false;
}

/** A list argument: an array variable, a JSON array, or comma-separated values. */
export function asList(arg: unknown): unknown[] {
  if (Array.isArray(arg)) return arg;
  if (typeof arg !== 'string') return arg === null || arg === undefined ? [] : [arg];
  const s = arg.trim();
  if (s.startsWith('[')) {
    try {
      const parsed = JSON.parse(s) as unknown;
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: split below
    }
  }
  return s === '' ? [] : s.split(',').map((x) => x.trim());
}

function between(value: number | undefined, bounds: unknown[], toNumber: (v: unknown) => number | undefined): boolean {
  if (value === undefined || bounds.length !== 2) return false;
  const [low, high] = bounds.map(toNumber);
  return low !== undefined && high !== undefined && value >= low && value <= high;
}

export function evaluateCondition(condition: Condition, ctx: ConditionContext): boolean {
  const value = lookup(ctx.variables, condition.variable);
  const arg = resolveArgument(condition.argument, ctx);
  const num = (v: unknown) => (isNumeric(v) ? Number(v) : undefined);
  switch (condition.operator) {
    case 'equal_to':
      return equal(value, arg);
    case 'not_equal_to':
      return !equal(value, arg);
    case 'greater_than': {
      const c = compare(value, arg, ctx.now);
      return c !== undefined && c > 0;
    }
    case 'less_than': {
      const c = compare(value, arg, ctx.now);
      return c !== undefined && c < 0;
    }
    case 'greater_than_or_equal_to': {
      const c = compare(value, arg, ctx.now);
      return c !== undefined && c >= 0;
    }
    case 'less_than_or_equal_to': {
      const c = compare(value, arg, ctx.now);
      return c !== undefined && c <= 0;
    }
    case 'contains':
      return contains(value, arg);
    case 'not_contains':
      return !contains(value, arg);
    case 'empty':
      return isEmpty(value);
    case 'not_empty':
      return !isEmpty(value);
    case 'exists':
      return value !== undefined && value !== null;
    case 'not_exists':
      return value === undefined || value === null;
    case 'contains_all': {
      const wanted = asList(arg);
      return wanted.length > 0 && wanted.every((w) => contains(value, w));
    }
    case 'not_contains_all': {
      const wanted = asList(arg);
      return !(wanted.length > 0 && wanted.every((w) => contains(value, w)));
    }
    case 'is_timestamp':
      return toTime(value, ctx.now) !== undefined;
    case 'is_not_timestamp':
      return toTime(value, ctx.now) === undefined;
    case 'is_timestamp_on_or_after': {
      const [t, a] = [toTime(value, ctx.now), toTime(arg, ctx.now)];
      return t !== undefined && a !== undefined && t >= a;
    }
    case 'is_timestamp_before': {
      const [t, a] = [toTime(value, ctx.now), toTime(arg, ctx.now)];
      return t !== undefined && a !== undefined && t < a;
    }
    case 'is_timestamp_on_or_after_date': {
      const [t, a] = [toTime(value, ctx.now), toTime(arg, ctx.now)];
      return t !== undefined && a !== undefined && dateOf(t) >= dateOf(a);
    }
    case 'is_timestamp_before_date': {
      const [t, a] = [toTime(value, ctx.now), toTime(arg, ctx.now)];
      return t !== undefined && a !== undefined && dateOf(t) < dateOf(a);
    }
    case 'is_timestamp_before_now': {
      const t = toTime(value, ctx.now);
      return t !== undefined && t < Date.parse(ctx.now);
    }
    case 'is_timestamp_on_or_after_now': {
      const t = toTime(value, ctx.now);
      return t !== undefined && t >= Date.parse(ctx.now);
    }
    case 'is_timestamp_between':
      return between(toTime(value, ctx.now), asList(arg), (v) => toTime(v, ctx.now));
    case 'is_between':
      return between(num(value), asList(arg), num);
    case 'is_audience_member':
      return typeof arg === 'string' && (ctx.audiences ?? []).includes(arg);
    case 'is_not_audience_member':
      return !(typeof arg === 'string' && (ctx.audiences ?? []).includes(arg));
    default: {
      const unknown: never = condition.operator;
      throw new Error(`Unknown condition operator ${String(unknown)}`);
    }
  }
}

/**
 * One condition as it was evaluated (ADR 0219): the variable and what it held, the operator, the
 * argument as written and as compared (a variable it names is resolved), and the result. Values
 * longer than {@link MAX_RECORDED_JSON} characters of JSON are cut to a preview.
 */
export interface ConditionEvaluation {
  variable: string;
  operator: string;
  argument: string | null;
  /** The variable's value (null when absent); for audience operators, the audiences asked about that the recipient is in. */
  value: unknown;
  /** The argument as compared: the value of the variable it names, else the literal. */
  compared_to: unknown;
  result: boolean;
}

export const MAX_RECORDED_JSON = 1024;

/** A value as recorded for an explanation: whole up to MAX_RECORDED_JSON characters of JSON, else a preview. */
export function recordedValue(value: unknown): unknown {
  if (value === undefined) return null;
  const json = JSON.stringify(value);
  if (json === undefined) return null;
  if (json.length <= MAX_RECORDED_JSON) return value;
  return { $truncated: true, length: json.length, preview: json.slice(0, 200) };
}

const AUDIENCE_OPERATORS = new Set(['is_audience_member', 'is_not_audience_member']);

/** Evaluates one condition and says what it compared: the same result as {@link evaluateCondition}. */
export function explainCondition(condition: Condition, ctx: ConditionContext): ConditionEvaluation {
  const audience = AUDIENCE_OPERATORS.has(condition.operator);
  return {
    variable: condition.variable,
    operator: condition.operator,
    argument: condition.argument ?? null,
    value: audience ? [...(ctx.audiences ?? [])] : recordedValue(lookup(ctx.variables, condition.variable)),
    compared_to: recordedValue(resolveArgument(condition.argument ?? null, ctx)),
    result: evaluateCondition(condition, ctx),
  };
}

/** Every condition must hold (an empty list holds). */
export const allConditionsHold = (conditions: readonly Condition[] | null | undefined, ctx: ConditionContext) =>
  (conditions ?? []).every((c) => evaluateCondition(c, ctx));
