export * from './guide-content';
