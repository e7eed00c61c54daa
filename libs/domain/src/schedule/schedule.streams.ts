/** One stream per schedule per environment. */
export const scheduleStream = (environment: string, scheduleId: string) => `schedule-${environment}-${scheduleId}`;
export const SCHEDULE_STREAM_PREFIX = 'schedule-';
