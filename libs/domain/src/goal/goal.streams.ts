export const goalStream = (environment: string, key: string) => `goal-${environment}-${key}`;
/** A run's conversion to one goal: appended once (no_stream), so a run converts once per goal. */
export const goalConversionStream = (environment: string, goalKey: string, runId: string) =>
  `goal_conversion-${environment}-${goalKey}-${runId}`;
