export * from './guide-messages';
