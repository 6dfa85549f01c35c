import { z } from 'zod';
import type { EndpointDeclaration } from '../endpoint';
import { userIdParam } from './users';

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
] as const satisfies readonly EndpointDeclaration[];
