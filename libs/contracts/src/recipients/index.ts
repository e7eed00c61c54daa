export * from './common';
export * from './users';
