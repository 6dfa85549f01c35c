import { z } from 'zod';
import { isoTimestamp } from '../primitives';

/** A URL variable or custom header as GitLab shows it: the key only, the value is write-only. */
export const hookKeyEntity = z.object({ key: z.string() });

/**
 * lib/api/entities/hook.rb: what every hook shows. `token` is never shown; `url_variables` and
 * `custom_headers` show their keys only (`masked_url_variables`, `masked_custom_headers`).
 */
export const hookEntity = z.object({
  id: z.number().int(),
  url: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  created_at: isoTimestamp,
  push_events: z.boolean(),
  tag_push_events: z.boolean(),
  merge_requests_events: z.boolean(),
  repository_update_events: z.boolean(),
  enable_ssl_verification: z.boolean(),
  /** WebHooks::AutoDisabling: hooks here are never disabled, so always `executable`. */
  alert_status: z.enum(['executable', 'disabled', 'temporarily_disabled']),
  disabled_until: isoTimestamp.nullable(),
  url_variables: z.array(hookKeyEntity),
  push_events_branch_filter: z.string().nullable(),
  branch_filter_strategy: z.enum(['wildcard', 'regex', 'all_branches']),
  custom_webhook_template: z.string().nullable(),
  custom_headers: z.array(hookKeyEntity),
});

/** lib/api/entities/project_hook.rb. */
export const projectHookEntity = hookEntity.extend({
  project_id: z.number().int(),
  issues_events: z.boolean(),
  confidential_issues_events: z.boolean(),
  note_events: z.boolean(),
  confidential_note_events: z.boolean(),
  pipeline_events: z.boolean(),
  wiki_page_events: z.boolean(),
  deployment_events: z.boolean(),
  feature_flag_events: z.boolean(),
  job_events: z.boolean(),
  releases_events: z.boolean(),
  milestone_events: z.boolean(),
  emoji_events: z.boolean(),
  resource_access_token_events: z.boolean(),
  resource_deploy_token_events: z.boolean(),
  vulnerability_events: z.boolean(),
  /** Beyond GitLab: alerts as Alert Hooks (BEYOND_GITLAB_HOOK_EVENT_FLAGS). */
  alert_events: z.boolean(),
});
export type ProjectHookEntity = z.infer<typeof projectHookEntity>;

/** ee/lib/api/entities/group_hook.rb. */
export const groupHookEntity = hookEntity.extend({
  group_id: z.number().int(),
  issues_events: z.boolean(),
  confidential_issues_events: z.boolean(),
  note_events: z.boolean(),
  confidential_note_events: z.boolean(),
  pipeline_events: z.boolean(),
  wiki_page_events: z.boolean(),
  job_events: z.boolean(),
  deployment_events: z.boolean(),
  feature_flag_events: z.boolean(),
  releases_events: z.boolean(),
  subgroup_events: z.boolean(),
  member_events: z.boolean(),
  emoji_events: z.boolean(),
  project_events: z.boolean(),
  milestone_events: z.boolean(),
  vulnerability_events: z.boolean(),
  resource_access_token_events: z.boolean(),
  /** Beyond GitLab: alerts of the projects below the group as Alert Hooks. */
  alert_events: z.boolean(),
});
export type GroupHookEntity = z.infer<typeof groupHookEntity>;

/**
 * lib/api/entities/web_hook_log.rb: one delivery of a hook, its last attempt's request and answer. The
 * last four fields are ours: where the delivery stands, how often it was tried, the Idempotency-Key it is
 * sent with (the same on every retry and resend) and why it failed.
 */
export const webHookLogEntity = z.object({
  id: z.number().int(),
  url: z.string().nullable(),
  trigger: z.string(),
  request_headers: z.record(z.string(), z.string()),
  request_data: z.unknown(),
  response_headers: z.record(z.string(), z.string()),
  response_body: z.string(),
  execution_duration: z.number(),
  /** The code as a string, `internal error` without an answer, null before the first attempt. */
  response_status: z.string().nullable(),
  created_at: isoTimestamp,
  status: z.enum(['queued', 'delivered', 'failed']),
  attempts: z.number().int(),
  idempotency_key: z.string(),
  reason: z.string().nullable(),
});
export type WebHookLogEntity = z.infer<typeof webHookLogEntity>;

/**
 * lib/api/entities/retry_webhook_event.rb: the resent request's answer code, any code (no answer at all is
 * 422 with the error, as WebHookService#execute has it); null when the copy still waits behind the hook's
 * earlier deliveries after one request timeout (queued, its outcome in the log).
 */
export const retryWebhookEventEntity = z.object({ response_status: z.number().int().nullable() });
