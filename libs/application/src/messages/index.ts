export * from './engagement';
export * from './link-tracking';
export * from './feed-localizer';
