export * from './channel-data.migration';
export * from './channel-data.projection';
export * from './channel-data.queries';
