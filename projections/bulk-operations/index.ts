export * from './bulk-operations.migration';
export * from './bulk-operations.projection';
export * from './bulk-operations.queries';
