export * from './projection';
export * from './projection-runtime';
export * from './checkpoints.migration';
export * from './reactor';
export * from './reactor-runtime';
export * from './reactors.migration';
export * from './define-projection';
export * from './erasure-keys.migration';
