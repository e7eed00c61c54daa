export * from './broadcasts.migration';
export * from './broadcasts.projection';
export * from './broadcasts.queries';
