export * from './core.module';
export * from './read-your-writes';
export * from './tokens';
export * from './boot';
export * from './secrets';
export * from './inline-runs.provider';
