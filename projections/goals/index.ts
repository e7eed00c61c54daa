export * from './goals.migration';
export * from './goals.projection';
export * from './goals.queries';
