export * from './run.events';
export * from './batch.events';
