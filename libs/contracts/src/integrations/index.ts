export * from './census.routes';
export * from './hightouch.routes';
