export * from './item-schemas.migration';
export * from './item-schemas.projection';
export * from './item-schemas.queries';
