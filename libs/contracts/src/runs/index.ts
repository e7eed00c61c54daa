export * from './run.events';
export * from './batch.events';
export * from './trigger.routes';
export * from './recipient-runs.routes';
export * from './cancel.routes';
export * from './notify.routes';
