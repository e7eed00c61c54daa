export * from './census.routes';
