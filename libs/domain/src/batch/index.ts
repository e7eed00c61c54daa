export * from './batch.decider';
