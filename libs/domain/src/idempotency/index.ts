export * from './idempotency.commands';
export * from './idempotency.decider';
export * from './idempotency.events';
export * from './idempotency.streams';
