export * from './timers.migration';
export * from './timers.projection';
export * from './timers.queries';
