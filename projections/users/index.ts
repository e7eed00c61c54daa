export * from './users.migration';
export * from './users.projection';
export * from './users.queries';
