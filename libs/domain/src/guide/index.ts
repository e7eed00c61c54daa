export * from './guide-content';
export * from './guide-targeting';
export * from './guide-engagement.decider';
export * from './guide-group.decider';
