export * from './run.events';
