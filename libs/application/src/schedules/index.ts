export * from './schedule-use-cases';
export * from './schedule-firer';
export * from './schedule-cleanup';
