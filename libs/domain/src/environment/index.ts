export * from './environment.commands';
export * from './environment.decider';
export * from './environment.events';
export * from './environment.streams';
