import { z } from 'zod';
import type { EndpointDeclaration } from '../endpoint';
import { booleanParam, integerParam, recordIdParam } from '../primitives';
import { paginationQuery } from '../pagination';
import { stringParam } from './params';
import { emailEntity, personalAccessTokenEntity } from './users';

const users = ['users'];
const tokens = ['personal_access_tokens'];

export const emailIdParam = z.object({ email_id: recordIdParam });

/** GET /personal_access_tokens (lib/api/personal_access_tokens.rb). */
export const listPersonalAccessTokensQuery = z.object({
  user_id: integerParam.optional(),
  revoked: booleanParam.optional(),
  state: z.enum(['active', 'inactive']).optional(),
  search: stringParam.optional(),
});

/**
 * E-mail addresses (lib/api/users.rb: /user/emails, /users/:id/emails/:email_id) and personal access
 * tokens (lib/api/personal_access_tokens.rb).
 */
export const CREDENTIALS_ENDPOINTS = [
  {
    method: 'GET',
    path: '/user/emails/{email_id}',
    operationId: 'getCurrentUserEmail',
    summary: "One of the signed-in user's e-mail addresses",
    tags: users,
    auth: 'token',
    readScopes: ['read_user'],
    params: emailIdParam,
    response: { status: 200, description: 'Address', schema: emailEntity },
    errors: [400, 401, 404],
  },
  {
    method: 'POST',
    path: '/user/emails',
    operationId: 'addCurrentUserEmail',
    summary: 'Add an e-mail address to the signed-in user',
    tags: users,
    auth: 'token',
    params: z.object({ email: stringParam }),
    response: { status: 201, description: 'Address', schema: emailEntity },
    errors: [400, 401],
  },
  {
    method: 'DELETE',
    path: '/user/emails/{email_id}',
    operationId: 'deleteCurrentUserEmail',
    summary: "Delete one of the signed-in user's secondary addresses",
    tags: users,
    auth: 'token',
    params: emailIdParam,
    response: { status: 204, description: 'Deleted' },
    errors: [400, 401, 404],
  },
  {
    method: 'DELETE',
    path: '/users/{id}/emails/{email_id}',
    operationId: 'deleteUserEmail',
    summary: "Delete one of a user's secondary addresses (admin)",
    tags: users,
    auth: 'token',
    params: emailIdParam.extend({ id: recordIdParam }),
    response: { status: 204, description: 'Deleted' },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'GET',
    path: '/personal_access_tokens',
    operationId: 'listPersonalAccessTokens',
    summary: "The caller's tokens; an admin's view of anyone's",
    tags: tokens,
    auth: 'token',
    params: listPersonalAccessTokensQuery.extend(paginationQuery.shape),
    response: {
      status: 200,
      description: 'Tokens',
      schema: z.array(personalAccessTokenEntity),
      paginated: true,
    },
    errors: [400, 401],
  },
  {
    method: 'GET',
    path: '/personal_access_tokens/self',
    operationId: 'getCurrentPersonalAccessToken',
    summary: 'The token of this request',
    tags: tokens,
    auth: 'token',
    response: { status: 200, description: 'Token', schema: personalAccessTokenEntity },
    errors: [401],
  },
  {
    method: 'GET',
    path: '/personal_access_tokens/{id}',
    operationId: 'getPersonalAccessToken',
    summary: "One of the caller's tokens (an admin: anyone's)",
    tags: tokens,
    auth: 'token',
    params: z.object({ id: recordIdParam }),
    response: { status: 200, description: 'Token', schema: personalAccessTokenEntity },
    errors: [400, 401, 404],
  },
  {
    method: 'DELETE',
    path: '/personal_access_tokens/self',
    operationId: 'revokeCurrentPersonalAccessToken',
    summary: 'Revoke the token of this request',
    tags: tokens,
    auth: 'token',
    response: { status: 204, description: 'Revoked' },
    errors: [400, 401],
  },
  {
    method: 'DELETE',
    path: '/personal_access_tokens/{id}',
    operationId: 'revokePersonalAccessToken',
    summary: 'Revoke a token (its owner or an admin)',
    tags: tokens,
    auth: 'token',
    params: z.object({ id: recordIdParam }),
    response: { status: 204, description: 'Revoked' },
    errors: [400, 401, 404],
  },
] as const satisfies readonly EndpointDeclaration[];
