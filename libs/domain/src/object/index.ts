export * from './object.commands';
export * from './object.decider';
export * from './object.events';
export * from './object.streams';
