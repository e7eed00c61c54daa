export * from './content-hash';
export * from './template-checker';
export * from './workflow-validation';
export * from './secret-box';
export * from './render-step-template';
export * from './template-resources';
export * from './account-settings';
export * from './configuration';
