export * from './message.events';
export * from './message.routes';
export * from './feed.routes';
