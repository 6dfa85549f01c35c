import { z } from 'zod';
import { byOperationId, defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { groupHookEntity, projectHookEntity, retryWebhookEventEntity, webHookLogEntity } from './entities';
import {
  createGroupHookBody,
  createProjectHookBody,
  listHookEventsQuery,
  listHooksQuery,
  testGroupHookParams,
  testProjectHookParams,
  updateGroupHookBody,
  updateProjectHookBody,
} from './params';

const tags = ['hooks'];

/**
 * The durable consumer that removes the hooks of deleted projects and groups (GitLab's `has_many :hooks,
 * dependent: :delete_all` on Project and Group).
 */
export const HOOKS_IDENTITY_DURABLE = 'hooks-identity';

/** lib/api/project_hooks.rb: Maintainer and up (`authorize! :admin_web_hook`, admin_project). */
const PROJECT_HOOK_ENDPOINTS = [
  {
    method: 'GET',
    path: '/projects/{id}/hooks',
    operationId: 'listProjectHooks',
    summary: "A project's webhooks (Maintainer+), oldest first",
    tags,
    auth: 'token',
    params: listHooksQuery,
    response: { status: 200, description: 'Hooks', schema: z.array(projectHookEntity), paginated: true },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'POST',
    path: '/projects/{id}/hooks',
    operationId: 'createProjectHook',
    summary: 'Add a webhook to a project; its URL must pass the URL blocker',
    tags,
    auth: 'token',
    params: createProjectHookBody,
    response: { status: 201, description: 'Hook', schema: projectHookEntity },
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: 'GET',
    path: '/projects/{id}/hooks/{hook_id}',
    operationId: 'getProjectHook',
    summary: "One of a project's webhooks",
    tags,
    auth: 'token',
    response: { status: 200, description: 'Hook', schema: projectHookEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'PUT',
    path: '/projects/{id}/hooks/{hook_id}',
    operationId: 'updateProjectHook',
    summary: "Change a project's webhook; URL variables and custom headers given are merged by key",
    tags,
    auth: 'token',
    params: updateProjectHookBody,
    response: { status: 200, description: 'Hook', schema: projectHookEntity },
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: 'DELETE',
    path: '/projects/{id}/hooks/{hook_id}',
    operationId: 'deleteProjectHook',
    summary: "Remove a project's webhook",
    tags,
    auth: 'token',
    response: { status: 204, description: 'Removed' },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/hooks/{hook_id}/events',
    operationId: 'listProjectHookEvents',
    summary: "A project hook's deliveries of the last 7 days, newest first (lib/api/hooks/events.rb)",
    tags,
    auth: 'token',
    params: listHookEventsQuery,
    response: { status: 200, description: 'Hook logs', schema: z.array(webHookLogEntity), paginated: true },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'POST',
    path: '/projects/{id}/hooks/{hook_id}/events/{hook_log_id}/resend',
    operationId: 'resendProjectHookEvent',
    summary: 'Send a logged delivery again, same payload and Idempotency-Key (lib/api/hooks/resend_hook.rb)',
    tags,
    auth: 'token',
    response: { status: 201, description: 'Resent', schema: retryWebhookEventEntity },
    errors: [401, 403, 404, 422],
  },
  {
    method: 'POST',
    path: '/projects/{id}/hooks/{hook_id}/test/{trigger}',
    operationId: 'testProjectHook',
    summary:
      "Send the project's newest issue, merge request or note to the hook now (lib/api/hooks/trigger_test.rb)",
    tags,
    auth: 'token',
    params: testProjectHookParams,
    response: { status: 201, description: '{"message":"201 Created"}: the hook answered 2xx' },
    errors: [400, 401, 403, 404, 422],
  },
] as const satisfies readonly EndpointDeclaration[];

/** ee/lib/api/group_hooks.rb: Owner (`authorize! :admin_web_hook, user_group`), Premium and up. */
const GROUP_HOOK_ENDPOINTS = [
  {
    method: 'GET',
    path: '/groups/{id}/hooks',
    operationId: 'listGroupHooks',
    summary: "A group's webhooks (Owner, Premium+), oldest first",
    tags,
    auth: 'token',
    higherTier: true,
    params: listHooksQuery,
    response: { status: 200, description: 'Hooks', schema: z.array(groupHookEntity), paginated: true },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'POST',
    path: '/groups/{id}/hooks',
    operationId: 'createGroupHook',
    summary: 'Add a webhook to a group; its URL must pass the URL blocker',
    tags,
    auth: 'token',
    higherTier: true,
    params: createGroupHookBody,
    response: { status: 201, description: 'Hook', schema: groupHookEntity },
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: 'GET',
    path: '/groups/{id}/hooks/{hook_id}',
    operationId: 'getGroupHook',
    summary: "One of a group's webhooks",
    tags,
    auth: 'token',
    higherTier: true,
    response: { status: 200, description: 'Hook', schema: groupHookEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'PUT',
    path: '/groups/{id}/hooks/{hook_id}',
    operationId: 'updateGroupHook',
    summary: "Change a group's webhook; URL variables and custom headers given are merged by key",
    tags,
    auth: 'token',
    higherTier: true,
    params: updateGroupHookBody,
    response: { status: 200, description: 'Hook', schema: groupHookEntity },
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: 'DELETE',
    path: '/groups/{id}/hooks/{hook_id}',
    operationId: 'deleteGroupHook',
    summary: "Remove a group's webhook",
    tags,
    auth: 'token',
    higherTier: true,
    response: { status: 204, description: 'Removed' },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: '/groups/{id}/hooks/{hook_id}/events',
    operationId: 'listGroupHookEvents',
    summary: "A group hook's deliveries of the last 7 days, newest first (lib/api/hooks/events.rb)",
    tags,
    auth: 'token',
    higherTier: true,
    params: listHookEventsQuery,
    response: { status: 200, description: 'Hook logs', schema: z.array(webHookLogEntity), paginated: true },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'POST',
    path: '/groups/{id}/hooks/{hook_id}/events/{hook_log_id}/resend',
    operationId: 'resendGroupHookEvent',
    summary: 'Send a logged delivery again, same payload and Idempotency-Key (lib/api/hooks/resend_hook.rb)',
    tags,
    auth: 'token',
    higherTier: true,
    response: { status: 201, description: 'Resent', schema: retryWebhookEventEntity },
    errors: [401, 403, 404, 422],
  },
  {
    method: 'POST',
    path: '/groups/{id}/hooks/{hook_id}/test/{trigger}',
    operationId: 'testGroupHook',
    summary:
      'Send the newest issue, merge request or note of a project below the group to the hook now ' +
      '(lib/api/hooks/trigger_test.rb with TestHooks::GroupService)',
    tags,
    auth: 'token',
    higherTier: true,
    params: testGroupHookParams,
    response: { status: 201, description: '{"message":"201 Created"}: the hook answered 2xx' },
    errors: [400, 401, 403, 404, 422],
  },
] as const satisfies readonly EndpointDeclaration[];

export const HOOKS_ENDPOINTS = defineEndpoints('hooks', [...PROJECT_HOOK_ENDPOINTS, ...GROUP_HOOK_ENDPOINTS]);
export const HOOKS_API = byOperationId(HOOKS_ENDPOINTS);
