export * from './guide-content';
export * from './guide-targeting';
export * from './guide-engagement.decider';
