export * from './broadcasts.migration';
export * from './broadcast-scheduled-at.migration';
export * from './broadcasts.projection';
export * from './broadcasts.queries';
