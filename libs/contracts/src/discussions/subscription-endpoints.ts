import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { issueEntity, mergeRequestEntity } from './entities';

/** An issuable as the subscription calls answer it: Entities::Issue / Entities::MergeRequest, with `subscribed`. */
export const subscribedIssueEntity = issueEntity.extend({ subscribed: z.boolean() });
export const subscribedMergeRequestEntity = mergeRequestEntity.extend({ subscribed: z.boolean() });

/** lib/api/subscriptions.rb: nothing changed is `not_modified!`, an empty 304. */
const notModified = [{ status: 304, description: 'Already (un)subscribed: nothing changed' }] as const;

const issue = '/projects/{id}/issues/{issue_iid}';
const mergeRequest = '/projects/{id}/merge_requests/{merge_request_iid}';

/**
 * Subscriptions of the caller to issues and merge requests (lib/api/subscriptions.rb): the issue as
 * find_project_issue finds it, the merge request with `update_merge_request` (find_merge_request_with_access).
 */
export const ISSUABLE_SUBSCRIPTION_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'POST',
    path: `${issue}/subscribe`,
    operationId: 'subscribeProjectIssue',
    summary: 'Subscribe the caller to an issue',
    tags: ['issues'],
    auth: 'token',
    response: { status: 201, description: 'Issue', schema: subscribedIssueEntity },
    otherResponses: notModified,
    errors: [401, 404],
  },
  {
    method: 'POST',
    path: `${issue}/unsubscribe`,
    operationId: 'unsubscribeProjectIssue',
    summary: 'Unsubscribe the caller from an issue',
    tags: ['issues'],
    auth: 'token',
    response: { status: 201, description: 'Issue', schema: subscribedIssueEntity },
    otherResponses: notModified,
    errors: [401, 404],
  },
  {
    method: 'POST',
    path: `${mergeRequest}/subscribe`,
    operationId: 'subscribeProjectMergeRequest',
    summary: 'Subscribe the caller to a merge request (who may update it)',
    tags: ['merge_requests'],
    auth: 'token',
    response: { status: 201, description: 'Merge request', schema: subscribedMergeRequestEntity },
    otherResponses: notModified,
    errors: [401, 403, 404],
  },
  {
    method: 'POST',
    path: `${mergeRequest}/unsubscribe`,
    operationId: 'unsubscribeProjectMergeRequest',
    summary: 'Unsubscribe the caller from a merge request (who may update it)',
    tags: ['merge_requests'],
    auth: 'token',
    response: { status: 201, description: 'Merge request', schema: subscribedMergeRequestEntity },
    otherResponses: notModified,
    errors: [401, 403, 404],
  },
]);
