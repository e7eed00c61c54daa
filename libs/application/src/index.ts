export * from './handle-command';
export * from './environments';
