export * from './record-receipts';
export * from './suppressions';
export * from './sns-certificates';
