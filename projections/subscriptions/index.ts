export * from './subscriptions.migration';
export * from './subscriptions.projection';
export * from './subscriptions.queries';
