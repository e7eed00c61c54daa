export * from './message-receipts.migration';
export * from './message-receipts.projection';
export * from './message-receipts.queries';
