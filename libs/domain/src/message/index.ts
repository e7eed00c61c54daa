export * from './message.commands';
export * from './message.decider';
export * from './message.events';
export * from './message.streams';
