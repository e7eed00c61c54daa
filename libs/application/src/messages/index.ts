export * from './engagement';
export * from './link-tracking';
export * from './preference-links';
export * from './feed-localizer';
