export * from './route';
export * from './errors';
export * from './pagination';
export * from './system.routes';
export * from './idempotency.events';
export * from './ids';
