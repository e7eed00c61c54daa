export * from './event-history';
export * from './log-reading';
