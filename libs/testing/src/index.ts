export * from './test-env';
export * from './test-database';
export * from './decider-spec';
export * from './kafka';
export * from './kafka-stream-check';
export * from './racing-store';
export * from './outbound';
export * from './wait';
