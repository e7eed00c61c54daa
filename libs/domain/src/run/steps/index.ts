export * from './cohort';
export * from './condition-groups';
export * from './delay';
export * from './durations';
export * from './send-windows';
export * from './fetch-policy';
export * from './wait-for-event';
