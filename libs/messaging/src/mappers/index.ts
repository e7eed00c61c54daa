export * from './stream-histories';
export * from './message-view';
export * from './run-view';
export * from './message-event.mapper';
export * from './workflow-run-event.mapper';
export * from './erasure-tombstone.mapper';
