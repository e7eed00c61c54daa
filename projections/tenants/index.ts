export * from './tenants.migration';
export * from './tenants.projection';
export * from './tenants.queries';
