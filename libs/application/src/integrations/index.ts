export * from './census';
