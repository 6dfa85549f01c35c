import { z } from 'zod';
import type { EndpointDeclaration } from '../endpoint';
import { paginationQuery } from '../pagination';
import { booleanParam, integerParam } from '../primitives';
import { groupDetailEntity, groupEntity, listGroupsQuery } from './groups';
import { namespaceIdParams, stringParam } from './params';
import { namespaceBasicEntity } from './projects';

const groups = ['groups'];
const namespaces = ['namespaces'];

/** POST /groups/:id/transfer: no `group_id` makes the group a root group. */
export const transferGroupBody = z.object({ group_id: integerParam.optional() });

/** GET /namespaces (lib/api/namespaces.rb). */
export const listNamespacesQuery = z.object({
  search: stringParam.optional(),
  owned_only: booleanParam.optional(),
  top_level_only: booleanParam.optional(),
});

/** Entities::Namespace: NamespaceBasic plus what group Owners and administrators see. */
export const namespaceEntity = namespaceBasicEntity.extend({
  members_count_with_descendants: z.number().int().optional(),
  root_repository_size: z.number().int().optional(),
  projects_count: z.number().int().optional(),
});

/** Group hierarchy reads and moves (lib/api/groups.rb) and namespaces (lib/api/namespaces.rb). */
export const NAMESPACE_ENDPOINTS = [
  {
    method: 'GET',
    path: '/groups/{id}/descendant_groups',
    operationId: 'listDescendantGroups',
    summary: 'Every visible group below a group, at any depth',
    tags: groups,
    auth: 'optional-token',
    params: listGroupsQuery.extend(paginationQuery.shape).extend(namespaceIdParams.shape),
    response: { status: 200, description: 'Groups', schema: z.array(groupEntity), paginated: true },
    errors: [400, 401, 404],
  },
  {
    method: 'POST',
    path: '/groups/{id}/transfer',
    operationId: 'transferGroup',
    summary: 'Move a group under another group, or make it a root group (Owner)',
    tags: groups,
    auth: 'token',
    params: transferGroupBody.extend(namespaceIdParams.shape),
    response: { status: 201, description: 'Group', schema: groupDetailEntity },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'GET',
    path: '/namespaces',
    operationId: 'listNamespaces',
    summary: "The caller's personal namespace and groups (an admin: all)",
    tags: namespaces,
    auth: 'token',
    params: listNamespacesQuery.extend(paginationQuery.shape),
    response: { status: 200, description: 'Namespaces', schema: z.array(namespaceEntity), paginated: true },
    errors: [401],
  },
  {
    method: 'GET',
    path: '/namespaces/{id}',
    operationId: 'getNamespace',
    summary: 'One namespace by id or full path, for its members',
    tags: namespaces,
    auth: 'token',
    params: namespaceIdParams,
    response: { status: 200, description: 'Namespace', schema: namespaceEntity },
    errors: [401, 404],
  },
] as const satisfies readonly EndpointDeclaration[];
