export * from './messages.migration';
export * from './messages.projection';
