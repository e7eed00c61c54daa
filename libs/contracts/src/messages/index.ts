export * from './message.events';
