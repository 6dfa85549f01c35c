export * from './entities';
export * from './params';
export * from './endpoints';
