export * from './projection';
export * from './projection-runtime';
export * from './checkpoints.migration';
