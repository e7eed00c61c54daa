export * from './shared';
export * from './environment';
export * from './user';
export * from './channel';
export * from './config';
export * from './message';
export * from './run';
export * from './batch';
