export * from './params';
export * from './users';
export * from './groups';
export * from './projects';
export * from './members';
export * from './endpoints';
export * from './credentials.endpoints';
export * from './namespaces.endpoints';
