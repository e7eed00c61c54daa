export * from './engagement';
export * from './link-tracking';
