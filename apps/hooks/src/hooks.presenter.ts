import {
  GROUP_HOOK_EVENT_FLAGS,
  PROJECT_HOOK_EVENT_FLAGS,
  type GroupHookEntity,
  type ProjectHookEntity,
} from '@gl/contracts';
import type { HookDoc } from './hooks.models';

function flags(hook: HookDoc, names: readonly string[]): Record<string, boolean> {
  return Object.fromEntries(names.map((name) => [name, hook.events[name] ?? false]));
}

/**
 * lib/api/entities/hook.rb: the token is never shown, URL variables and custom headers by key only
 * (`masked_url_variables`, `masked_custom_headers`). Hooks here are never disabled by failures (nothing
 * is delivered yet), so `alert_status` is `executable` and `disabled_until` null.
 */
function presentHook(hook: HookDoc) {
  return {
    id: hook._id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.createdAt.toISOString(),
    push_events: hook.events.push_events ?? false,
    tag_push_events: hook.events.tag_push_events ?? false,
    merge_requests_events: hook.events.merge_requests_events ?? false,
    repository_update_events: hook.events.repository_update_events ?? false,
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: 'executable' as const,
    disabled_until: null,
    url_variables: hook.urlVariables.map(({ key }) => ({ key })),
    push_events_branch_filter: hook.pushEventsBranchFilter,
    branch_filter_strategy: hook.branchFilterStrategy,
    custom_webhook_template: hook.customWebhookTemplate,
    custom_headers: hook.customHeaders.map(({ key }) => ({ key })),
  };
}

/** A hook of a project or a group: its parent's id under `parentKey`, then the parent kind's event flags. */
function presentParentHook(
  hook: HookDoc,
  parentKey: 'project_id' | 'group_id',
  eventFlags: readonly string[],
) {
  return {
    // A parent's few hooks: the spread keeps the entity's type checked (no per-item cost that matters).
    // eslint-disable-next-line no-restricted-syntax
    ...presentHook(hook),
    [parentKey]: hook.parentId,
    ...flags(hook, eventFlags),
  };
}

/** lib/api/entities/project_hook.rb. */
export function presentProjectHook(hook: HookDoc): ProjectHookEntity {
  return presentParentHook(hook, 'project_id', PROJECT_HOOK_EVENT_FLAGS) as ProjectHookEntity;
}

/** ee/lib/api/entities/group_hook.rb. */
export function presentGroupHook(hook: HookDoc): GroupHookEntity {
  return presentParentHook(hook, 'group_id', GROUP_HOOK_EVENT_FLAGS) as GroupHookEntity;
}
