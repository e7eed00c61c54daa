export * from './shared';
export * from './environment';
export * from './user';
export * from './channel';
export * from './message';
export * from './run';
export * from './batch';
