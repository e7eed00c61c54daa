export * from './assets.migration';
export * from './assets.projection';
export * from './assets.queries';
