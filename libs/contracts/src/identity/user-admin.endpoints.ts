import { z } from 'zod';
import type { EndpointDeclaration } from '../endpoint';
import { paginationQuery } from '../pagination';
import { keysetProjectsQuery, listProjectsQuery, projectEntity } from './projects';
import {
  deleteUserQuery,
  listMembershipsQuery,
  membershipEntity,
  updateUserBody,
  userIdParam,
  userWithAdminEntity,
} from './users';
import { stringParam } from './params';

const users = ['users'];

/**
 * POST /users/:id/{block,unblock,ban,unban,deactivate,activate} (lib/api/users.rb, admins only): 201 with
 * `true`, `false` (the state transition did not apply) or `null` (already in that state).
 */
function moderation<const A extends string>(action: A, summary: string) {
  return {
    method: 'POST',
    path: `/users/{id}/${action}`,
    operationId: `${action}User` as const,
    summary,
    tags: users,
    auth: 'token',
    params: userIdParam,
    response: { status: 201, description: 'Whether the state changed', schema: z.boolean().nullable() },
    errors: [401, 403, 404],
  } as const satisfies EndpointDeclaration;
}

export const USER_ADMIN_ENDPOINTS = [
  moderation('block', 'Block a user (admin); their tokens stop at once'),
  moderation('unblock', 'Unblock a user (admin)'),
  moderation('ban', 'Ban an active user (admin)'),
  moderation('unban', 'Unban a banned user (admin)'),
  moderation('deactivate', 'Deactivate a dormant user (admin)'),
  moderation('activate', 'Activate a deactivated user (admin)'),
  {
    method: 'PUT',
    path: '/users/{id}',
    operationId: 'updateUser',
    summary: 'Update a user and their profile (admin)',
    tags: users,
    auth: 'token',
    params: updateUserBody,
    response: { status: 200, description: 'User', schema: userWithAdminEntity },
    errors: [400, 401, 403, 404, 409],
  },
  {
    method: 'DELETE',
    path: '/users/{id}',
    operationId: 'deleteUser',
    summary: 'Delete a user, their personal projects and memberships (admin)',
    tags: users,
    auth: 'token',
    params: deleteUserQuery,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404, 409],
  },
  {
    method: 'GET',
    path: '/users/{user_id}/projects',
    operationId: 'listUserProjects',
    summary: "Projects in a user's personal namespace visible to the caller",
    tags: users,
    auth: 'optional-token',
    params: listProjectsQuery.extend({
      ...paginationQuery.shape,
      ...keysetProjectsQuery.shape,
      user_id: stringParam,
    }),
    response: { status: 200, description: 'Projects', schema: z.array(projectEntity), paginated: true },
    errors: [401, 404],
  },
  {
    method: 'GET',
    path: '/users/{user_id}/memberships',
    operationId: 'listUserMemberships',
    summary: "A user's direct memberships of groups and projects (admin)",
    tags: users,
    auth: 'token',
    readScopes: ['read_user'],
    params: listMembershipsQuery.extend(paginationQuery.shape),
    response: { status: 200, description: 'Memberships', schema: z.array(membershipEntity), paginated: true },
    errors: [400, 401, 403, 404],
  },
] as const satisfies readonly EndpointDeclaration[];
