export * from './primitives';
export * from './shared';
export * from './context';
export * from './events';
