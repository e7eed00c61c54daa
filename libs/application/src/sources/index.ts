export * from './source-use-cases';
