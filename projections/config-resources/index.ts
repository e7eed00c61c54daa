export * from './config-resources.migration';
export * from './config-resources.projection';
export * from './config-resources.queries';
export * from './guide-activation.migration';
export * from './guide-notifications';
export * from './archived-resources.migration';
export * from './config-version.migration';
