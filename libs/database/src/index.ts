export * from './database';
export * from './embedded-postgres';
export * from './keyset-pagination';
export * from './unavailable';
export * from './leased-rows';
export * from './grouped-reads';
