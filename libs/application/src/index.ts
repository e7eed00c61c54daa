export * from './handle-command';
export * from './environments';
export * from './config';
