import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { subscriptionEndpoints } from '../subscription-endpoints';
import { issueEntity, mergeRequestEntity } from './entities';
import { subscribableIssuePath, subscribableMergeRequestPath } from './path-params';

/** An issuable as the subscription calls answer it: Entities::Issue / Entities::MergeRequest, with `subscribed`. */
export const subscribedIssueEntity = issueEntity.extend({ subscribed: z.boolean() });
export const subscribedMergeRequestEntity = mergeRequestEntity.extend({ subscribed: z.boolean() });

const issue = '/projects/{id}/issues/{issue_iid}';
const mergeRequest = '/projects/{id}/merge_requests/{merge_request_iid}';

/**
 * Subscriptions of the caller to issues and merge requests (lib/api/subscriptions.rb): the issue as
 * find_project_issue finds it, the merge request with `update_merge_request` (find_merge_request_with_access).
 */
export const ISSUABLE_SUBSCRIPTION_ENDPOINTS = defineEndpoints('discussions', [
  ...subscriptionEndpoints({
    name: 'ProjectIssue',
    path: issue,
    noun: 'an issue',
    tags: ['issues'],
    entity: subscribedIssueEntity,
    entityName: 'Issue',
    params: subscribableIssuePath,
    errors: [401, 404],
  }),
  ...subscriptionEndpoints({
    name: 'ProjectMergeRequest',
    path: mergeRequest,
    noun: 'a merge request (who may update it)',
    tags: ['merge_requests'],
    entity: subscribedMergeRequestEntity,
    entityName: 'Merge request',
    params: subscribableMergeRequestPath,
    errors: [401, 403, 404],
  }),
]);
