export * from './env';
export * from './database';
export * from './runtime';
export * from './http';
export * from './service-harness';
export * from './nats';
export * from './random';
export * from './polling';
