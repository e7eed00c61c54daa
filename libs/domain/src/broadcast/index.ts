export * from './broadcast.decider';
export * from './broadcast.events';
