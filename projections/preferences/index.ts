export * from './preferences.migration';
export * from './preferences.projection';
export * from './preferences.queries';
