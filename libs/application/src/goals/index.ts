export * from './goal-use-cases';
export * from './goal-recipient-matcher';
