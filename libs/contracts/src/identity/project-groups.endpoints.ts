import { z } from 'zod';
import type { EndpointDeclaration } from '../endpoint';
import { paginationQuery } from '../pagination';
import { namespaceIdParams, stringParam, integerListParam } from './params';
import { projectEntity } from './projects';

const projects = ['projects'];

/** GET /projects/:id/groups (lib/api/projects.rb, Projects::GroupsFinder). */
export const listProjectGroupsQuery = z.object({
  search: stringParam.optional(),
  skip_groups: integerListParam.optional(),
});

/** Entities::PublicGroupDetails. */
export const publicGroupDetailsEntity = z.object({
  id: z.number().int(),
  web_url: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  full_name: z.string(),
  full_path: z.string(),
});

/** PUT /projects/:id/transfer: the new namespace by id or full path. */
export const transferProjectBody = z.object({ namespace: stringParam });

export const PROJECT_GROUP_ENDPOINTS = [
  {
    method: 'GET',
    path: '/projects/{id}/groups',
    operationId: 'listProjectGroups',
    summary: "The project's ancestor groups visible to the caller",
    tags: projects,
    auth: 'optional-token',
    params: listProjectGroupsQuery.extend(paginationQuery.shape).extend(namespaceIdParams.shape),
    response: {
      status: 200,
      description: 'Groups',
      schema: z.array(publicGroupDetailsEntity),
      paginated: true,
    },
    errors: [400, 401, 404],
  },
  {
    method: 'PUT',
    path: '/projects/{id}/transfer',
    operationId: 'transferProject',
    summary: 'Move a project to another namespace (Owner)',
    tags: projects,
    auth: 'token',
    params: transferProjectBody.extend(namespaceIdParams.shape),
    response: { status: 200, description: 'Project', schema: projectEntity },
    errors: [400, 401, 403, 404],
  },
] as const satisfies readonly EndpointDeclaration[];
