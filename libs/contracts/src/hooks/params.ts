import { z } from 'zod';
import { paginationQuery } from '../pagination';
import { booleanParam, recordIdParam } from '../primitives';

export const hookIdParams = z.object({ hook_id: recordIdParam });

/** The event switches both kinds of hook take (lib/api/project_hooks.rb, ee/lib/api/group_hooks.rb). */
export const HOOK_EVENT_FLAGS = [
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'confidential_note_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'vulnerability_events',
] as const;

/**
 * Beyond GitLab's webhooks: `alert_events`, the alerts of the project (or of the projects below the group)
 * delivered as `object_kind: "alert"` Alert Hooks. GitLab has the switch on integrations only
 * (Integrations::Base `alert_events`, fed by AlertManagement::Alert#execute_integrations).
 */
export const BEYOND_GITLAB_HOOK_EVENT_FLAGS = ['alert_events'] as const;

/** Project hooks only: project_hooks.rb's `resource_deploy_token_events`. */
export const PROJECT_HOOK_EVENT_FLAGS = [
  ...HOOK_EVENT_FLAGS,
  'resource_deploy_token_events',
  ...BEYOND_GITLAB_HOOK_EVENT_FLAGS,
] as const;

/** Group hooks only (ee/lib/api/group_hooks.rb): subgroup, member and project events. */
export const GROUP_HOOK_EVENT_FLAGS = [
  ...HOOK_EVENT_FLAGS,
  'subgroup_events',
  'member_events',
  'project_events',
  ...BEYOND_GITLAB_HOOK_EVENT_FLAGS,
] as const;

export type HookEventFlag =
  (typeof PROJECT_HOOK_EVENT_FLAGS)[number] | (typeof GROUP_HOOK_EVENT_FLAGS)[number];

function flags<const F extends readonly string[]>(names: F) {
  return Object.fromEntries(names.map((name) => [name, booleanParam.optional()])) as {
    [K in F[number]]: z.ZodOptional<typeof booleanParam>;
  };
}

/** lib/api/helpers/web_hooks_helpers.rb `params :url_variables` / `params :custom_headers`. */
const keyValues = z.array(z.object({ key: z.string(), value: z.string() }));

const hookFields = {
  name: z.string().optional(),
  description: z.string().optional(),
  enable_ssl_verification: booleanParam.optional(),
  token: z.string().optional(),
  push_events_branch_filter: z.string().optional(),
  branch_filter_strategy: z.enum(['wildcard', 'regex', 'all_branches']).optional(),
  custom_webhook_template: z.string().optional(),
  url_variables: keyValues.optional(),
  custom_headers: keyValues.optional(),
};

/** `use :requires_url` on create, `use :optional_url` on update (web_hooks_helpers.rb). */
export const createProjectHookBody = z.object({
  url: z.string(),
  ...hookFields,
  ...flags(PROJECT_HOOK_EVENT_FLAGS),
});
export const updateProjectHookBody = createProjectHookBody.partial();

export const createGroupHookBody = z.object({
  url: z.string(),
  ...hookFields,
  ...flags(GROUP_HOOK_EVENT_FLAGS),
});
export const updateGroupHookBody = createGroupHookBody.partial();

export type CreateHookParams = z.infer<typeof createProjectHookBody> | z.infer<typeof createGroupHookBody>;
export type UpdateHookParams = z.infer<typeof updateProjectHookBody> | z.infer<typeof updateGroupHookBody>;

export const listHooksQuery = paginationQuery;

/** The HTTP codes Rack knows and the three groups lib/api/hooks/events.rb's `status` takes. */
const LOG_STATUS_GROUPS = ['successful', 'client_failure', 'server_failure'] as const;
const logStatus = z.union([z.enum(LOG_STATUS_GROUPS), z.string().regex(/^[1-5]\d\d$/)]);

/**
 * lib/api/hooks/events.rb: the path's `hook_id`, `status` (comma-separated codes or groups) and
 * `use :pagination`, its `per_page` further held to 1..20 (default 20): more is "per_page does not have a
 * valid value".
 */
export const listHookEventsParams = hookIdParams
  .extend(paginationQuery.shape)
  .extend({
    status: z
      .preprocess(
        (raw) => (typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : raw),
        z.array(logStatus),
      )
      .optional(),
  })
  .refine((query) => query.per_page === undefined || query.per_page <= 20, {
    message: 'per_page does not have a valid value',
    path: ['per_page'],
  });

/** lib/api/hooks/resend_hook.rb: `:hook_id/events/:hook_log_id/resend`. */
export const hookLogParams = z.object({ hook_id: recordIdParam, hook_log_id: recordIdParam });

/**
 * lib/api/hooks/trigger_test.rb: `:hook_id/test/:trigger`, the trigger one of ProjectHook.triggers' names
 * (app/models/hooks/project_hook.rb), the same as the hook's event switches.
 */
const triggerTestParams = () =>
  z.object({
    hook_id: recordIdParam,
    trigger: z.enum(PROJECT_HOOK_EVENT_FLAGS),
  });

export const testProjectHookParams = triggerTestParams();

/**
 * The same module mounted by ee/lib/api/group_hooks.rb: its `values:` are ProjectHook.triggers' for group
 * hooks too, so `subgroup_events` is a 400 there while `resource_deploy_token_events` passes (and then is
 * "Testing not available for this hook", GroupHook having no such trigger).
 */
export const testGroupHookParams = triggerTestParams();
