export * from './bootstrap';
export * from './environment-use-cases';
