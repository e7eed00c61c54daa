export * from './suppressions.migration';
export * from './suppressions.projection';
export * from './suppressions.queries';
