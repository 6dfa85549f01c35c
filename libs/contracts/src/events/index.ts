export * from './envelope';
export * from './catalogue';
export * from './identity.events';
export * from './domain.events';
export * from './issuable-changes.events';
export * from './issue-comment.event';
export * from './root-event';
