export * from './bootstrap';
export * from './environment-use-cases';
export * from './first-run-configuration';
export * from './signing-keys';
export * from './credential-secrets';
