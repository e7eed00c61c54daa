export * from './mapping';
export * from './source.decider';
export * from './source.events';
export * from './source.streams';
