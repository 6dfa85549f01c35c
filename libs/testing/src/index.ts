export * from './env';
export * from './database';
export * from './runtime';
export * from './http';
