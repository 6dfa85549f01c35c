export * from './entities';
export * from './endpoints';
