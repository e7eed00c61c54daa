export * from './branches.migration';
export * from './branches.projection';
export * from './branches.queries';
