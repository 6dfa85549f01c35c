export * from './entities';
export * from './endpoints';
export * from './project-label-endpoints';
