export * from './audience.commands';
export * from './audience.decider';
export * from './audience.events';
export * from './audience.streams';
export * from './segment-arguments';
export * from './segments';
