export * from './bus';
export * from './events';
export * from './excerpt';
export * from './outbox';
export * from './consumer';
export * from './dead-letters';
export * from './payload-limit';
export * from './publish-errors';
