export * from './environments.migration';
export * from './environments.projection';
export * from './environments.queries';
export * from './signing-keys.migration';
export * from './environment-details.migration';
export * from './credentials-version.migration';
export * from './api-key-lifecycle.migration';
