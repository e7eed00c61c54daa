export * from './kafka-settings';
export * from './kafka-client';
export * from './topics';
export * from './topic-admin';
export * from './envelopes';
export * from './relay';
export * from './schemas/json-schemas';
export * from './tail';
