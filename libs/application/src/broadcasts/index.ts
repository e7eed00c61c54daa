export * from './broadcast-use-cases';
export * from './broadcast-sender';
