export * from './tenant.commands';
export * from './tenant.decider';
export * from './tenant.events';
export * from './tenant.streams';
