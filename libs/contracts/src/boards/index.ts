export * from './entities';
export * from './endpoints';
export * from './project-label-endpoints';
export * from './project-milestone-endpoints';
export * from './project-board-endpoints';
