export * from './members.migration';
export * from './members.projection';
export * from './members.queries';
