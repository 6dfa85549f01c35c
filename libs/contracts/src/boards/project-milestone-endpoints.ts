import { z } from 'zod';
import { dateTimeParam } from '../discussions/list-params';
import { defineEndpoints } from '../endpoint';
import { booleanParam, recordIdParam } from '../primitives';
import { createMilestoneBody, listMilestonesQuery, milestoneEntity, updateMilestoneBody } from './entities';

/** Entities::Milestone of a project milestone: `project_id` where a group milestone has `group_id`. */
export const projectMilestoneEntity = milestoneEntity
  .omit({ group_id: true })
  .extend({ project_id: z.number().int() });
export type ProjectMilestoneEntity = z.infer<typeof projectMilestoneEntity>;

/**
 * lib/api/milestone_responses.rb `list_params` on a project: `include_ancestors` (or the deprecated
 * `include_parent_milestones`, mutually exclusive) adds the milestones of the project's group and its
 * ancestors; `updated_before` / `updated_after` bound `updated_at`.
 */
export const listProjectMilestonesQuery = listMilestonesQuery.extend({
  include_ancestors: booleanParam.optional(),
  include_parent_milestones: booleanParam.optional(),
  updated_before: dateTimeParam.optional(),
  updated_after: dateTimeParam.optional(),
});

const milestonesTag = ['milestones'];
const milestone = '/projects/{id}/milestones/{milestone_id}';
const milestoneIdParams = z.object({ milestone_id: recordIdParam });
const listed = z.array(z.union([projectMilestoneEntity, milestoneEntity]));

/**
 * Project milestones (lib/api/project_milestones.rb, `before { authenticate! }`: reads need a token too):
 * read with read_milestone, written with admin_milestone (Reporter and up); errors of the model are
 * GitLab's `Failed to create milestone {...}` / `Failed to update milestone {...}` messages.
 */
export const PROJECT_MILESTONE_ENDPOINTS = defineEndpoints('boards', [
  {
    method: 'GET',
    path: '/projects/{id}/milestones',
    operationId: 'listProjectMilestones',
    summary: "Milestones of a project, with its groups' milestones when include_ancestors=true",
    tags: milestonesTag,
    auth: 'token',
    params: listProjectMilestonesQuery,
    response: { status: 200, description: 'Milestones', schema: listed, paginated: true },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'POST',
    path: '/projects/{id}/milestones',
    operationId: 'createProjectMilestone',
    summary: 'Create a project milestone (Reporter and up)',
    tags: milestonesTag,
    auth: 'token',
    params: createMilestoneBody,
    response: { status: 201, description: 'Milestone', schema: projectMilestoneEntity },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'GET',
    path: milestone,
    operationId: 'getProjectMilestone',
    summary: 'One project milestone (by id)',
    tags: milestonesTag,
    auth: 'token',
    params: milestoneIdParams,
    response: { status: 200, description: 'Milestone', schema: projectMilestoneEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'PUT',
    path: milestone,
    operationId: 'updateProjectMilestone',
    summary: 'Update, close (state_event=close) or reopen (activate) a project milestone',
    tags: milestonesTag,
    auth: 'token',
    params: updateMilestoneBody,
    response: { status: 200, description: 'Milestone', schema: projectMilestoneEntity },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'DELETE',
    path: milestone,
    operationId: 'deleteProjectMilestone',
    summary: 'Delete a project milestone (Reporter and up)',
    tags: milestonesTag,
    auth: 'token',
    params: milestoneIdParams,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
  {
    method: 'POST',
    path: `${milestone}/promote`,
    operationId: 'promoteProjectMilestone',
    summary:
      "Promote a project milestone to its group's milestone, merging the group's projects' milestones of that title",
    tags: milestonesTag,
    auth: 'token',
    params: milestoneIdParams,
    // `status(200)` is the endpoint's last value, so Grape answers the number itself.
    response: { status: 200, description: 'Promoted', schema: z.literal(200) },
    errors: [400, 401, 403, 404],
  },
]);
