export * from './engagement';
