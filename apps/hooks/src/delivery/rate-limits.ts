import type { Connection } from 'mongoose';
import { createRateLimiter, createWindowCounts, type RateLimiter } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';

/**
 * Gitlab::ApplicationRateLimiter.rate_limits (lib/gitlab/application_rate_limiter.rb): a hook test and a
 * delivery resend, five a minute each for one hook parent and user.
 */
const HOOK_RATE_LIMITS = {
  web_hook_test: { threshold: 5, intervalSeconds: 60 },
  web_hook_event_resend: { threshold: 5, intervalSeconds: 60 },
};

export type HookRateLimiter = RateLimiter<keyof typeof HOOK_RATE_LIMITS>;

/** Counted in the hooks database (`rate_limit_counts`), so every hooks replica sees one count. */
export function createHookRateLimiter(connection: Connection): HookRateLimiter {
  return createRateLimiter(
    createWindowCounts(connection, 'rate_limit_counts', 'RateLimitCount'),
    HOOK_RATE_LIMITS,
  );
}

/**
 * GitLab's scope `[hook.parent, current_user]` (lib/api/hooks/trigger_test.rb, resend_hook.rb), keyed
 * as ApplicationRateLimiter keys records: `project:5:user:2`.
 */
export function hookCallerScope(hook: Pick<HookDoc, 'parentKind' | 'parentId'>, userId: number): string[] {
  return [`${hook.parentKind}:${hook.parentId}`, `user:${userId}`];
}
