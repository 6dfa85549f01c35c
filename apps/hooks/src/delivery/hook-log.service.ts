import { NotFoundError, type PageRequest } from '@gl/service-kit';
import type { DeliveryDoc } from './delivery.models';
import type { DeliveryStore } from './delivery.store';
import type { Sender } from './sender';

/** WebHookLog::MAX_RECENT_DAYS (app/models/hooks/web_hook_log.rb): the log route shows a week. */
const RECENT_DAYS = 7;

/**
 * WebHooks::WebHookLogsFinder#string_filter_to_code (app/finders/web_hooks/web_hook_logs_finder.rb): the
 * groups as the codes they stand for; `server_failure` includes attempts that got no answer.
 */
function statusCodes(filters: string[]): string[] {
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  return filters.flatMap((filter) => {
    if (filter === 'successful') return range(200, 299);
    if (filter === 'client_failure') return range(400, 499);
    if (filter === 'server_failure') return [...range(500, 599), 'internal error'];
    return [filter];
  });
}

/** `recent(7)`: from the start of the day (UTC) seven days ago. */
function recentSince(now: Date): Date {
  const since = new Date(now.getTime() - RECENT_DAYS * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  return since;
}

export interface HookLogDeps {
  store: DeliveryStore;
  sender: Pick<Sender, 'wake'>;
  /** How long a resend waits for its attempt's answer before it answers without one. */
  resendWaitMs: number;
  retryForMs: number;
}

/** A hook's delivery log (WebHooks::WebHookLogsFinder) and resends (WebHooks::Events::ResendService). */
export function createHookLogService(deps: HookLogDeps) {
  const { store } = deps;

  /** The week's deliveries, newest first, those whose last answer matches `status` when given. */
  function recent(
    hookId: number,
    page: PageRequest,
    status?: string[],
  ): Promise<{ docs: DeliveryDoc[]; total: number }> {
    return store.recent(hookId, recentSince(new Date()), page, status ? statusCodes(status) : undefined);
  }

  /**
   * Polls until the delivery was attempted once: its answer's code; null without an answer, when the wait
   * is over, or at once when it waits behind an earlier delivery's retry (the hook's order is kept).
   */
  async function attemptedStatus(hookId: number, id: number): Promise<number | null> {
    const deadline = Date.now() + deps.resendWaitMs;
    for (;;) {
      const doc = await store.find(hookId, id);
      if (doc?.last) {
        const status = Number(doc.last.responseStatus);
        return Number.isInteger(status) ? status : null;
      }
      const head = await store.head(hookId);
      const held = head !== null && head._id !== id && new Date(head.nextAttemptAt).getTime() > Date.now();
      if (!doc || held || Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * `hook.web_hook_logs.find(params[:hook_log_id])` (404), then a copy with the same payload and
   * Idempotency-Key, queued behind the hook's pending deliveries; ResendService sends at once, so the
   * answer's code is awaited a while.
   */
  async function resend(hookId: number, logId: number): Promise<number | null> {
    const copy = await store.resend(hookId, logId, new Date(), deps.retryForMs);
    if (!copy) throw new NotFoundError();
    deps.sender.wake();
    return attemptedStatus(hookId, copy._id);
  }

  return { recent, resend };
}

export type HookLogService = ReturnType<typeof createHookLogService>;
