export * from './headers';
export * from './recipient';
export * from './domain-event.v1';
export * from './message-event.v1';
export * from './workflow-run-event.v1';
