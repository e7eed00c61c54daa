export * from './messages.migration';
export * from './messages.projection';
export * from './feed-notifications';
