export * from './conversion';
export * from './goal.decider';
export * from './goal.events';
export * from './goal.streams';
