export * from './run.decider';
export * from './run.events';
export * from './run.streams';
export * from './workflow-cursor';
export * from './steps';
export * from './cancellation';
