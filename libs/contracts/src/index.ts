export * from './events';
export * from './http';
export * from './recipients';
export * from './config';
export * from './messages';
export * from './runs';
export * from './conditions';
export * from './public-ids';
