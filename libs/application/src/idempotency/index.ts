export * from './idempotency-gate';
