export * from './tags.migration';
export * from './tags.projection';
export * from './tags.queries';
