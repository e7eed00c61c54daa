export * from './database';
export * from './embedded-postgres';
