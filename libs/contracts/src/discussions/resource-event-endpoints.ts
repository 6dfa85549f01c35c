import { z } from 'zod';
import { defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { paginationQuery } from '../pagination';
import { isoTimestamp, recordIdParam } from '../primitives';
import { userSummary } from '../shared';
import { labelDetailsEntity } from './entities';

/** The issuables that have resource events, as `resource_type` names them. */
const resourceType = z.enum(['Issue', 'MergeRequest']);

/** LabelBasic of a label event (see labelDetailsEntity). */
export const resourceEventLabel = labelDetailsEntity;

/**
 * lib/api/entities/milestone.rb, from discussions' copy of the group milestone (copies/copies.models.ts):
 * what the copy does not hold (description, timestamps, web_url) is null.
 */
export const resourceEventMilestone = z.object({
  id: z.number().int(),
  iid: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  state: z.enum(['active', 'closed']).nullable(),
  created_at: isoTimestamp.nullable(),
  updated_at: isoTimestamp.nullable(),
  due_date: z.string().nullable(),
  start_date: z.string().nullable(),
  expired: z.boolean(),
  web_url: z.string().nullable(),
});

/** lib/api/entities/resource_label_event.rb. */
export const resourceLabelEventEntity = z.object({
  id: z.number().int(),
  user: userSummary,
  created_at: isoTimestamp,
  resource_type: resourceType,
  resource_id: z.number().int(),
  label: resourceEventLabel.nullable(),
  action: z.enum(['add', 'remove']),
});
export type ResourceLabelEventEntity = z.infer<typeof resourceLabelEventEntity>;

/** lib/api/entities/resource_milestone_event.rb; `state` is the issuable's state at the change. */
export const resourceMilestoneEventEntity = z.object({
  id: z.number().int(),
  user: userSummary,
  created_at: isoTimestamp,
  resource_type: resourceType,
  resource_id: z.number().int(),
  milestone: resourceEventMilestone.nullable(),
  action: z.enum(['add', 'remove']),
  state: z.enum(['opened', 'closed', 'merged']),
});
export type ResourceMilestoneEventEntity = z.infer<typeof resourceMilestoneEventEntity>;

/** lib/api/entities/resource_state_event.rb. */
export const resourceStateEventEntity = z.object({
  id: z.number().int(),
  user: userSummary,
  created_at: isoTimestamp,
  resource_type: resourceType,
  resource_id: z.number().int(),
  source_commit: z.string().nullable(),
  source_merge_request_id: z.number().int().nullable(),
  state: z.enum(['closed', 'reopened', 'merged']),
});
export type ResourceStateEventEntity = z.infer<typeof resourceStateEventEntity>;

/** ee/lib/api/entities/resource_weight_event.rb: `issue_id`, no resource_type. */
export const resourceWeightEventEntity = z.object({
  id: z.number().int(),
  user: userSummary,
  created_at: isoTimestamp,
  issue_id: z.number().int(),
  weight: z.number().int().nullable(),
});
export type ResourceWeightEventEntity = z.infer<typeof resourceWeightEventEntity>;

/** The kinds of resource event, each its own GitLab table and API class. */
export type ResourceEventKind = 'label' | 'milestone' | 'state' | 'weight';

/** The operation ids of one kind's routes on one issuable type. */
export interface ResourceEventOperationIds {
  list: string;
  get: string;
}

/** By kind, then issuable type (weight events exist for issues only: ee/lib/api/resource_weight_events.rb). */
export const RESOURCE_EVENT_OPERATIONS = {
  label: {
    Issue: { list: 'listIssueResourceLabelEvents', get: 'getIssueResourceLabelEvent' },
    MergeRequest: { list: 'listMergeRequestResourceLabelEvents', get: 'getMergeRequestResourceLabelEvent' },
  },
  milestone: {
    Issue: { list: 'listIssueResourceMilestoneEvents', get: 'getIssueResourceMilestoneEvent' },
    MergeRequest: {
      list: 'listMergeRequestResourceMilestoneEvents',
      get: 'getMergeRequestResourceMilestoneEvent',
    },
  },
  state: {
    Issue: { list: 'listIssueResourceStateEvents', get: 'getIssueResourceStateEvent' },
    MergeRequest: { list: 'listMergeRequestResourceStateEvents', get: 'getMergeRequestResourceStateEvent' },
  },
  weight: {
    Issue: { list: 'listIssueResourceWeightEvents', get: 'getIssueResourceWeightEvent' },
  },
} as const satisfies Record<
  ResourceEventKind,
  Partial<Record<'Issue' | 'MergeRequest', ResourceEventOperationIds>>
>;

/**
 * `requires :eventable_id, types: [Integer, String]` and `requires :event_id, type: String`: any text is
 * taken and looked up (no "is invalid"); what names no record is the issuable's or the event's 404.
 */
const anyId = z.union([z.string(), z.number()]).transform(String);

/**
 * The path parameters as each API class names them: lib/api/resource_state_events.rb declares
 * `eventable_iid` and `event_id` as Integer (anything else is "<name> is invalid"); the label, milestone and
 * weight classes take `eventable_id` and `event_id` as strings.
 */
const PATHS = {
  label: { list: z.object({ eventable_id: anyId }), get: z.object({ eventable_id: anyId, event_id: anyId }) },
  milestone: {
    list: z.object({ eventable_id: anyId }),
    get: z.object({ eventable_id: anyId, event_id: anyId }),
  },
  state: {
    list: z.object({ eventable_iid: recordIdParam }),
    get: z.object({ eventable_iid: recordIdParam, event_id: recordIdParam }),
  },
  weight: {
    list: z.object({ eventable_id: anyId }),
    get: z.object({ eventable_id: anyId, event_id: anyId }),
  },
} as const;

const ENTITIES = {
  label: resourceLabelEventEntity,
  milestone: resourceMilestoneEventEntity,
  state: resourceStateEventEntity,
  weight: resourceWeightEventEntity,
} as const;

function eventEndpoints<const O extends ResourceEventOperationIds>(
  kind: ResourceEventKind,
  segment: 'issues' | 'merge_requests',
  ids: O,
) {
  const what = segment === 'issues' ? 'an issue' : 'a merge request';
  const idName = kind === 'state' ? 'eventable_iid' : 'eventable_id';
  const base = `/projects/{id}/${segment}/{${idName}}/resource_${kind}_events`;
  const entity = ENTITIES[kind];
  const tags = ['resource_events'];
  const id = <K extends keyof O>(key: K): O[K] => ids[key];
  return [
    {
      method: 'GET',
      path: base,
      operationId: id('list'),
      summary: `List the ${kind} events of ${what}`,
      tags,
      // `before { authenticate! }`: anonymous callers get 401, even on public projects.
      auth: 'token',
      params: PATHS[kind].list.extend(paginationQuery.shape),
      response: { status: 200, description: 'Events', schema: z.array(entity), paginated: true },
      errors: [400, 401, 404],
      ...(kind === 'weight' && { higherTier: true }),
    },
    {
      method: 'GET',
      path: `${base}/{event_id}`,
      operationId: id('get'),
      summary: `Retrieve one ${kind} event of ${what}`,
      tags,
      auth: 'token',
      params: PATHS[kind].get,
      response: { status: 200, description: 'Event', schema: entity },
      errors: [400, 401, 404],
      ...(kind === 'weight' && { higherTier: true }),
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

/**
 * lib/api/resource_label_events.rb, resource_milestone_events.rb, resource_state_events.rb and
 * ee/lib/api/resource_weight_events.rb, for issues and merge requests of a project.
 */
export const RESOURCE_EVENT_ENDPOINTS = defineEndpoints('discussions', [
  ...eventEndpoints('label', 'issues', RESOURCE_EVENT_OPERATIONS.label.Issue),
  ...eventEndpoints('label', 'merge_requests', RESOURCE_EVENT_OPERATIONS.label.MergeRequest),
  ...eventEndpoints('milestone', 'issues', RESOURCE_EVENT_OPERATIONS.milestone.Issue),
  ...eventEndpoints('milestone', 'merge_requests', RESOURCE_EVENT_OPERATIONS.milestone.MergeRequest),
  ...eventEndpoints('state', 'issues', RESOURCE_EVENT_OPERATIONS.state.Issue),
  ...eventEndpoints('state', 'merge_requests', RESOURCE_EVENT_OPERATIONS.state.MergeRequest),
  ...eventEndpoints('weight', 'issues', RESOURCE_EVENT_OPERATIONS.weight.Issue),
]);
