export * from './preference-center.migration';
export * from './preference-center.projection';
export * from './preference-center.queries';
