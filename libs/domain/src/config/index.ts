export * from './account-config.deciders';
export * from './commit-log.decider';
export * from './config.streams';
export * from './resource.decider';
export * from './resource.events';
export * from './tag.decider';
export * from './item-schema.decider';
export * from './preference-center.deciders';
