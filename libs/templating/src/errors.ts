import { LiquidError } from 'liquidjs';
import type { TemplateError, TemplateErrorCode } from './types';

/** Raised by the engine's own tags, filters and limits; always ends up as a `TemplateError` value. */
export class TemplateFailure extends Error {
  constructor(
    readonly code: TemplateErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TemplateFailure';
  }
}

const PARTIAL_KEY = Symbol('templating.partial');

/** Remembers in which partial an error happened (the innermost one wins). */
export function tagPartial(error: unknown, key: string): unknown {
  if (error && typeof error === 'object' && !(PARTIAL_KEY in error)) {
    Object.defineProperty(error, PARTIAL_KEY, { value: key, enumerable: false });
  }
  return error;
}

// liquidjs appends ", line:3, col:5" (and sometimes ", file:x") to its messages; we report them as fields.
const POSITION_SUFFIX = /(, file:[^,]*)?, line:\d+, col:\d+$/;
const LIQUID_LIMIT = /^(parse length|template render|memory alloc) limit exceeded$/;

function originOf(error: unknown): unknown {
  let current = error;
  for (let i = 0; i < 10 && current && typeof current === 'object' && 'originalError' in current; i++) {
    const next = (current as { originalError?: unknown }).originalError;
    if (!next) break;
    current = next;
  }
  return current;
}

function describeLimit(message: string): string {
  if (message.startsWith('parse length')) return 'template is larger than the size limit';
  if (message.startsWith('template render')) return 'render time limit exceeded';
  return 'memory limit exceeded (a range, array or string in the template is too large)';
}

/** Turns anything thrown while parsing or rendering into the error value callers get. */
export function toTemplateError(error: unknown): TemplateError {
  const origin = originOf(error);
  const result: TemplateError = { code: 'template_render', message: 'template could not be rendered' };

  if (origin instanceof TemplateFailure) {
    result.code = origin.code;
    result.message = origin.message;
  } else if (origin instanceof Error && LIQUID_LIMIT.test(origin.message)) {
    result.code = 'template_limit';
    result.message = describeLimit(origin.message);
  } else if (LiquidError.is(error)) {
    const liquidError = error as LiquidError;
    const syntax = ['ParseError', 'TokenizationError'].includes(liquidError.name);
    result.code = syntax ? 'template_syntax' : 'template_render';
    result.message = (origin instanceof Error ? origin.message : liquidError.message).replace(POSITION_SUFFIX, '');
  } else if (origin instanceof Error) {
    result.message = origin.message;
  }

  const token = LiquidError.is(error) ? (error as LiquidError).token : undefined;
  if (token) {
    const [line, column] = token.getPosition();
    result.line = line;
    result.column = column;
  }
  const partial = error && typeof error === 'object' ? (error as Record<symbol, unknown>)[PARTIAL_KEY] : undefined;
  if (typeof partial === 'string') result.partial = partial;
  return result;
}

/** `LiquidErrors` (several parse errors at once) becomes one `TemplateError` each. */
export function toTemplateErrors(error: unknown): TemplateError[] {
  const many = (error as { errors?: unknown[] } | undefined)?.errors;
  if (LiquidError.is(error) && Array.isArray(many) && many.length) return many.map(toTemplateError);
  return [toTemplateError(error)];
}
