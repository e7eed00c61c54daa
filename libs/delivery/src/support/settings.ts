/** A non-empty string setting, trimmed; undefined otherwise. */
export function stringSetting(settings: Record<string, unknown>, key: string): string | undefined {
  const value = settings[key];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** One message per missing key, in the order given. */
export function missingSettings(settings: Record<string, unknown>, ...keys: string[]): string[] {
  return keys.filter((key) => stringSetting(settings, key) === undefined).map((key) => `${key} is required`);
}

/** The origin a provider calls: ProviderConfig.baseUrl when given (without a trailing slash), else its public API. */
export function baseUrlOf(configured: string | undefined, fallback: string): string {
  return (configured ?? fallback).replace(/\/+$/, '');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
