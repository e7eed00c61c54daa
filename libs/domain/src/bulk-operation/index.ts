export * from './bulk-operation.commands';
export * from './bulk-operation.decider';
export * from './bulk-operation.events';
export * from './bulk-operation.streams';
