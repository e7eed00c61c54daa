export * from './census';
export * from './hightouch';
