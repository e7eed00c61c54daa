export * from './preference-set';
export * from './conditions';
export * from './evaluate-preferences';
