export * from './commits.migration';
export * from './commits.projection';
export * from './commits.queries';
