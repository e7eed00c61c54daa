export * from './test-env';
export * from './test-database';
export * from './decider-spec';
