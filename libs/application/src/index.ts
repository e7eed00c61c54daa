export * from './handle-command';
export * from './environments';
export * from './recipients';
export * from './config';
export * from './engine';
export * from './idempotency';
export * from './messages';
export * from './validation/zod-errors';
