export * from './cohort';
export * from './condition-groups';
export * from './delay';
export * from './durations';
export * from './send-windows';
