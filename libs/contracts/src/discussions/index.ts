export * from './entities';
export * from './params';
export * from './endpoints';
export * from './list-params';
export * from './board-column-endpoints';
export { personalSnippetEntity, snippetListQuery, type PersonalSnippetEntity } from './snippet-endpoints';
export { NOTE_OPERATIONS, THREAD_OPERATIONS } from './thread-operations';
export * from './path-params';
export {
  AWARD_OPERATIONS,
  NOTE_AWARD_OPERATIONS,
  awardEmojiEntity,
  type AwardEmojiEntity,
  type AwardOperationIds,
} from './award-emoji-endpoints';
export {
  ISSUE_LINK_TYPES,
  issueLinkEntity,
  relatedIssueEntity,
  type IssueLinkEntity,
  type IssueLinkType,
  type RelatedIssueEntity,
} from './issue-link-endpoints';
export {
  commitBasicEntity,
  diffEntity,
  mergeRequestChangesEntity,
  type CommitBasicEntity,
  type DiffEntity,
} from './merge-request-extra-endpoints';
export {
  RESOURCE_EVENT_OPERATIONS,
  type ResourceEventKind,
  type ResourceEventOperationIds,
  type ResourceLabelEventEntity,
  type ResourceMilestoneEventEntity,
  type ResourceStateEventEntity,
  type ResourceWeightEventEntity,
} from './resource-event-endpoints';
