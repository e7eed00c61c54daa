export * from './audience-members.migration';
export * from './audience-members.projection';
export * from './audience-members.queries';
export * from './dynamic-audiences.migration';
export * from './dynamic-membership';
export * from './dynamic-tenants.migration';
export * from './dynamic-tenant-membership';
