export * from './schedules.migration';
export * from './schedules.projection';
export * from './schedules.queries';
export * from './schedule-row';
export * from './schedule-timers';
