export * from './channel-groups.migration';
export * from './channel-groups.projection';
export * from './channel-groups.queries';
