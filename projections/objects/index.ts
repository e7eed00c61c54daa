export * from './objects.migration';
export * from './objects.projection';
export * from './objects.queries';
