/**
 * A personal field whose subject was erased reads as `{ $erased: true }` (ADR 0180) instead of
 * its declared shape. A rebuild after an erasure meets such events before the UserErased that
 * drops their rows, and must get past them: `erasedOr(field, fallback)` answers the fallback for
 * an erased field and the field otherwise.
 */
export function erasedOr<T>(value: T, fallback: T): T {
  return typeof value === 'object' && value !== null && (value as { $erased?: unknown }).$erased === true ? fallback : value;
}
