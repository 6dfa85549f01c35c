import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { isoTimestamp } from '../primitives';
import { issueEntity } from './entities';
import { issuePath } from './path-params';

/**
 * The link types of lib/api/issue_links.rb `values: IssueLink.available_link_types` as EE declares them on
 * every tier; `blocks` and `is_blocked_by` then need the blocked_issues feature (ee IssueLinks::CreateService).
 */
export const ISSUE_LINK_TYPES = ['relates_to', 'blocks', 'is_blocked_by'] as const;
export type IssueLinkType = (typeof ISSUE_LINK_TYPES)[number];

/** lib/api/entities/related_issue.rb: the issue as the issue lists show it, with the link it came through. */
export const relatedIssueEntity = issueEntity.extend({
  issue_link_id: z.number().int(),
  link_type: z.enum(ISSUE_LINK_TYPES),
  link_created_at: isoTimestamp,
  link_updated_at: isoTimestamp,
});
export type RelatedIssueEntity = z.infer<typeof relatedIssueEntity>;

/**
 * lib/api/entities/issue_link.rb: the stored link (an `is_blocked_by` request is stored as the other issue
 * `blocks` this one, so only the stored types show here).
 */
export const issueLinkEntity = z.object({
  source_issue: issueEntity,
  target_issue: issueEntity,
  link_type: z.enum(['relates_to', 'blocks']),
});
export type IssueLinkEntity = z.infer<typeof issueLinkEntity>;

/** `types: [String, Integer]`: Grape gives the handler a string either way. */
const stringOrInteger = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z.string(),
);

const oneLink = issuePath.extend({ issue_link_id: stringOrInteger });
const tags = ['issue_links'];

/** lib/api/issue_links.rb: `before { authenticate! }`, so every route needs a token. No pagination. */
export const ISSUE_LINK_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/projects/{id}/issues/{issue_iid}/links',
    operationId: 'listProjectIssueLinks',
    summary: 'Issues linked to an issue that the caller may read, oldest link first',
    tags,
    auth: 'token',
    params: issuePath,
    response: { status: 200, description: 'Related issues', schema: z.array(relatedIssueEntity) },
    errors: [401, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/issues/{issue_iid}/links/{issue_link_id}',
    operationId: 'getProjectIssueLink',
    summary: 'One link of an issue',
    tags,
    auth: 'token',
    params: oneLink,
    response: { status: 200, description: 'Issue link', schema: issueLinkEntity },
    errors: [401, 404],
  },
  {
    method: 'POST',
    path: '/projects/{id}/issues/{issue_iid}/links',
    operationId: 'createProjectIssueLink',
    summary: 'Link an issue to another issue (blocks and is_blocked_by on higher tiers)',
    tags,
    auth: 'token',
    params: issuePath.extend({
      target_project_id: stringOrInteger,
      target_issue_iid: stringOrInteger,
      link_type: z.enum(ISSUE_LINK_TYPES).optional(),
    }),
    response: { status: 201, description: 'Issue link', schema: issueLinkEntity },
    errors: [400, 401, 403, 404, 409, 422],
  },
  {
    method: 'DELETE',
    path: '/projects/{id}/issues/{issue_iid}/links/{issue_link_id}',
    operationId: 'deleteProjectIssueLink',
    summary: 'Remove a link between two issues',
    tags,
    auth: 'token',
    params: oneLink,
    response: { status: 200, description: 'The removed link', schema: issueLinkEntity },
    errors: [401, 404],
  },
]);
