export * from './decider';
export * from './errors';
export * from './same-json';
