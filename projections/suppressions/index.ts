export * from './suppressions.migration';
export * from './suppressions.projection';
export * from './suppressions.queries';
export * from './suppressions-user.migration';
