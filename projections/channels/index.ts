export * from './channels.migration';
export * from './channels.projection';
export * from './channels.queries';
