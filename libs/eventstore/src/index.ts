export * from './event-store';
export * from './position';
export * from './subscription';
export * from './wakeups';
export * from './postgres/postgres-event-store';
export * from './postgres/schema';
export * from './eventstoredb/eventstoredb-event-store';
export * from './sleeper';
