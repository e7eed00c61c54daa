export * from './event-store';
export * from './position';
export * from './subscription';
export * from './wakeups';
export * from './postgres/postgres-event-store';
export * from './postgres/schema';
export * from './sleeper';
export * from './shared-log-reader';
