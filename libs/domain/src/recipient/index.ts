export * from './recipient-aspects';
