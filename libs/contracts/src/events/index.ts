export * from './define-event';
export * from './environment.events';
export * from './registry';
export * from './compound';
