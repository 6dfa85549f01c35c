export * from './primitives';
export * from './shared';
export * from './context';
export * from './events';
export * from './endpoint';
export * from './endpoints';
export * from './identity';
export * from './discussions';
