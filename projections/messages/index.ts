export * from './messages.migration';
export * from './feed-counts.migration';
export * from './messages.projection';
export * from './messages.queries';
export * from './feed.queries';
