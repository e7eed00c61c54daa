/**
 * What one render may use. A template is customer input: every one of these bounds a way a
 * template could hold a worker (time, loops, memory, output, partials calling partials).
 */
export interface TemplateLimits {
  /** Characters of one template source (liquidjs `parseLimit`, checked again before parsing). */
  maxTemplateSize: number;
  /** Wall-clock milliseconds for one render, partial and translation lookups included (liquidjs `renderLimit`). */
  renderTimeoutMs: number;
  /** Loop iterations (`for`, `tablerow`) summed over the whole render, partials included. */
  maxLoopIterations: number;
  /** Characters of output, and of any one `capture`. */
  maxOutputSize: number;
  /**
   * liquidjs `memoryLimit`: units (characters, array items) allocated by filters, ranges and tags in
   * one render. It is also what bounds a range: `(1..n)` is refused before its n items are made.
   */
  maxMemory: number;
  /** Items of an array one filter may be given (as its input or an argument): filters walk them without a time check. */
  maxCollectionSize: number;
  /** Partials rendering partials; Knock renders up to 5 levels. */
  maxPartialDepth: number;
  /** Locale used when a translation or a formatting helper has no usable locale. */
  defaultLocale: string;
}

export const DEFAULT_LIMITS: TemplateLimits = {
  maxTemplateSize: 256 * 1024,
  renderTimeoutMs: 1_000,
  maxLoopIterations: 10_000,
  maxOutputSize: 1024 * 1024,
  maxMemory: 2_000_000,
  maxCollectionSize: 10_000,
  maxPartialDepth: 5,
  defaultLocale: 'en',
};

export function resolveLimits(options: Partial<TemplateLimits> = {}): TemplateLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(options) as [keyof TemplateLimits, unknown][]) {
    if (value === undefined) continue;
    if (key === 'defaultLocale') {
      if (typeof value !== 'string' || !value) throw new TypeError('defaultLocale must be a non-empty string');
      limits.defaultLocale = value;
    } else {
      if (typeof value !== 'number' || !(value > 0)) throw new TypeError(`${key} must be a positive number`);
      limits[key] = value;
    }
  }
  return limits;
}
