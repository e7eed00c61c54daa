export * from './shared';
export * from './environment';
