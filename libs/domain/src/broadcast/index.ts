export * from './broadcast.decider';
export * from './broadcast.events';
export * from './resumed-page';
