export * from './variables.migration';
export * from './variables.projection';
export * from './variables.queries';
