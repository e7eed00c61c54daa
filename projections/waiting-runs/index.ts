export * from './waiting-runs.migration';
export * from './waiting-runs.projection';
export * from './waiting-runs.queries';
