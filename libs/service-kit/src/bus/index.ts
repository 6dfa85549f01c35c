export * from './bus';
export * from './events';
export * from './outbox';
export * from './consumer';
