/** A source's configuration in one environment (settings and mappings). */
export const sourceStream = (environment: string, key: string) => `source-${environment}-${key}`;
/** One received event and what its actions did; an event repeating an idempotency key maps to the same log id. */
export const sourceLogStream = (environment: string, logId: string) => `source_log-${environment}-${logId}`;
