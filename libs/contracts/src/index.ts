export * from './events';
export * from './http';
