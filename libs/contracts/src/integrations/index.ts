export * from './census.routes';
export * from './hightouch.routes';
export * from './providers.routes';
