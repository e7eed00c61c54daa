export * from './ports';
export * from './event-ids';
export * from './aspects';
export * from './user-use-cases';
export * from './object-use-cases';
export * from './tenant-use-cases';
export * from './bulk-operations';
export * from './bulk-operation-reactor';
