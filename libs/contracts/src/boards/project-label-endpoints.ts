import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { booleanParam, integerParam } from '../primitives';
import { subscriptionEndpoints } from '../subscription-endpoints';
import { labelEntity, listLabelsQuery, updateLabelBody } from './entities';

/**
 * `priority` of a project label (lib/api/helpers/label_helpers.rb: `type: Integer, allow_blank: true`):
 * blank or null removes it (Label#unprioritize!).
 */
const priorityParam = z.preprocess((v) => (v === '' ? null : v), integerParam.nullable());

export const listProjectLabelsQuery = listLabelsQuery.extend({
  /** Accepted as GitLab does; issue and merge request counts are not shown (they live in discussions). */
  with_counts: booleanParam.optional(),
});

export const getProjectLabelQuery = z.object({
  label_id: z.string(),
  include_ancestor_groups: booleanParam.optional(),
});

export const createProjectLabelBody = z.object({
  name: z.string().min(1),
  color: z.string().min(1),
  description: z.string().optional(),
  priority: priorityParam.optional(),
});

/** `label_id` is the id or the title of one of the project's own labels. */
export const updateProjectLabelBody = updateLabelBody.extend({ priority: priorityParam.optional() });

/**
 * The deprecated PUT /projects/:id/labels (python-gitlab's ProjectLabel#save uses it): the label by
 * `label_id` or by its current `name`, exactly one of them.
 */
export const updateProjectLabelByNameBody = updateProjectLabelBody.omit({ label_id: true }).extend({
  label_id: integerParam.optional(),
  name: z.string().optional(),
});

const labels = ['labels'];
const label = '/projects/{id}/labels/{label_id}';
const labelIdParams = z.object({ label_id: z.string() });
const writeErrors = [400, 401, 403, 404, 409] as const;

/**
 * Project labels (lib/api/labels.rb, `before { authenticate! }`): a project's own labels and, where asked,
 * its groups' labels (Entities::ProjectLabel); promotion answers the group label (Entities::GroupLabel).
 */
export const PROJECT_LABEL_ENDPOINTS = defineEndpoints('boards', [
  {
    method: 'GET',
    path: '/projects/{id}/labels',
    operationId: 'listProjectLabels',
    summary: "Labels of a project, with its groups' labels unless include_ancestor_groups=false",
    tags: labels,
    auth: 'token',
    params: listProjectLabelsQuery,
    response: { status: 200, description: 'Labels', schema: z.array(labelEntity), paginated: true },
    errors: [401, 404],
  },
  {
    method: 'POST',
    path: '/projects/{id}/labels',
    operationId: 'createProjectLabel',
    summary: 'Create a project label (Reporter and up)',
    tags: labels,
    auth: 'token',
    params: createProjectLabelBody,
    response: { status: 201, description: 'Label', schema: labelEntity },
    errors: writeErrors,
  },
  {
    method: 'PUT',
    path: '/projects/{id}/labels',
    operationId: 'updateProjectLabelByName',
    summary: 'Update a project label named in the body (deprecated form)',
    tags: labels,
    auth: 'token',
    params: updateProjectLabelByNameBody,
    response: { status: 200, description: 'Label', schema: labelEntity },
    errors: writeErrors,
    deprecated: true,
  },
  {
    method: 'GET',
    path: label,
    operationId: 'getProjectLabel',
    summary: 'One label of a project or of its groups (by id or title)',
    tags: labels,
    auth: 'token',
    params: getProjectLabelQuery,
    response: { status: 200, description: 'Label', schema: labelEntity },
    errors: [401, 404],
  },
  {
    method: 'PUT',
    path: label,
    operationId: 'updateProjectLabel',
    summary: 'Update a project label (by id or title; priority null removes it)',
    tags: labels,
    auth: 'token',
    params: updateProjectLabelBody,
    response: { status: 200, description: 'Label', schema: labelEntity },
    errors: writeErrors,
  },
  {
    method: 'DELETE',
    path: label,
    operationId: 'deleteProjectLabel',
    summary: 'Delete a project label (by id or title)',
    tags: labels,
    auth: 'token',
    params: labelIdParams,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
  {
    method: 'PUT',
    path: `${label}/promote`,
    operationId: 'promoteProjectLabel',
    summary:
      "Promote a project label to its group's label, merging the group's projects' labels of that title",
    tags: labels,
    auth: 'token',
    params: labelIdParams,
    response: { status: 200, description: 'Group label', schema: labelEntity },
    errors: [400, 401, 403, 404],
  },
  ...subscriptionEndpoints({
    name: 'ProjectLabel',
    path: label,
    noun: "a project's label (by id or title)",
    tags: labels,
    entity: labelEntity,
    entityName: 'Label',
    params: labelIdParams,
    errors: [401, 404],
  }),
]);
