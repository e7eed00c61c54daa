export * from './goal-use-cases';
