export * from './event-history';
export * from './log-reading';
export * from './explain';
export * from './log-import';
export * from './log-replay-audit';
