import { addDuration, Duration, readPath, toInstant } from './durations';

export interface DelaySettings {
  delay_for?: Duration | null;
  delay_until_field_path?: string | null;
}

/**
 * When a delay step lets the run continue: `delay_until_field_path` (a timestamp in the run's
 * variables) plus `delay_for` when both are set. Null means no wait (skip_delay, a time already
 * past, or a missing field).
 */
export function delayUntil(settings: DelaySettings, variables: Record<string, unknown>, now: Date, skipDelay: boolean): Date | null {
  if (skipDelay) return null;
  let base = now;
  if (settings.delay_until_field_path) {
    const at = toInstant(readPath(variables, settings.delay_until_field_path));
    if (!at) return settings.delay_for ? addDuration(now, settings.delay_for) : null;
    base = at;
  }
  const until = settings.delay_for ? addDuration(base, settings.delay_for) : base;
  return until.getTime() > now.getTime() ? until : null;
}
