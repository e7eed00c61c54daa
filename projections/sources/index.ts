export * from './source-log-subjects.migration';
export * from './sources.migration';
export * from './sources.projection';
export * from './sources.queries';
