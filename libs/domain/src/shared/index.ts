export * from './decider';
export * from './errors';
