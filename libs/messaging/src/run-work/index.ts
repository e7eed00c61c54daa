export * from './run-work.v1';
export * from './run-work.dispatcher';
export * from './run-work.consumer';
