export * from './outbound-record';
export * from './relay-mapper';
export * from './domain-event.mapper';
export * from './knock-event.records';
export * from './kafka-publisher';
export * from './kafka-relay';
export * from './replay';
