export * from './run-event-view';
export * from './workflow-runs.migration';
export * from './event-parts.migration';
export * from './workflow-runs.projection';
export * from './workflow-runs.queries';
export * from './recipient-activity.queries';
