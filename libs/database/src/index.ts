export * from './database';
export * from './embedded-postgres';
export * from './unavailable';
