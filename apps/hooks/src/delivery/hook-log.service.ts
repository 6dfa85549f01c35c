import { HttpError, NotFoundError, type PageRequest } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';
import type { DeliveryAttempt, DeliveryDoc } from './delivery.models';
import { UNBUILT_PAYLOAD, type DeliveryStore } from './delivery.store';
import { interpolatedUrl, type Sender } from './sender';

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
  sender: Pick<Sender, 'wake' | 'sendThrough'>;
  /** A request's timeout (Gitlab.config.gitlab.webhook_timeout): how long a resend's own attempt may take. */
  timeoutMs: number;
  retryForMs: number;
}

/** WebHooks::Events::ResendService#url_changed_response (app/services/web_hooks/events/resend_service.rb). */
export const URL_CHANGED = 'The hook URL has changed, and this log entry cannot be retried';
/** Not GitLab's (its log always holds a request): an entry whose payload could never be built. */
export const NOTHING_TO_RESEND = 'This log entry has no request to resend';

/** lib/api/hooks/resend_hook.rb: `render_api_error!(result.message, 422)`. */
const unprocessable = (message: string) => new HttpError(422, { message });

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
   * The copy's first attempt, polled while another replica sends the hook's queue: until `until` while the
   * copy waits its turn, then while it is the hook's next delivery (being sent) for one request's time.
   * Null without an attempt by then, or at once when it waits behind an earlier delivery's retry.
   */
  async function attemptOf(hookId: number, id: number, until: number): Promise<DeliveryAttempt | null> {
    const last = until + deps.timeoutMs;
    for (;;) {
      const doc = await store.find(hookId, id);
      if (!doc || doc.last) return doc?.last ?? null;
      const head = await store.head(hookId);
      const now = Date.now();
      const held = head !== null && head._id !== id && new Date(head.nextAttemptAt).getTime() > now;
      if (held || now >= last || (now >= until && head?._id !== id)) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * lib/api/hooks/resend_hook.rb: `hook.web_hook_logs.find(params[:hook_log_id])` (404), then
   * WebHooks::Events::ResendService (app/services/web_hooks/events/resend_service.rb): 422 URL_CHANGED when
   * the hook's interpolated URL is no longer the one the log was sent to (WebHookLog#url_current?), else
   * `web_hook.execute(request_data, trigger, idempotency_key:)`: WebHookService#execute sends at once and
   * answers the code (201 `{"response_status": code}`, lib/api/entities/retry_webhook_event.rb), any code,
   * or 422 with the error when no answer came (a timeout, a refused connection, a blocked URL).
   *
   * Here a resend is a copy with the same payload and Idempotency-Key queued behind the hook's pending
   * deliveries (the hook's order holds, and a failed copy is retried like any delivery). This request sends
   * the queue up to the copy itself (sender `sendThrough`), or waits for the replica that holds it, so the
   * answer is GitLab's whenever the copy's turn comes within one request timeout (HOOKS_TIMEOUT_MS, GitLab's
   * webhook_timeout): the code, or 422 with the error (the copy then goes on being retried). Only when
   * earlier deliveries hold it back longer (one waits for a retry, or they take the whole timeout) is the
   * answer 201 `{"response_status": null}`: queued, its outcome in the log; GitLab has no such case.
   */
  async function resend(hook: HookDoc, logId: number): Promise<number | null> {
    const original = await store.find(hook._id, logId);
    if (!original) throw new NotFoundError();
    if (original.url !== null && original.url !== interpolatedUrl(hook)) throw unprocessable(URL_CHANGED);
    if (original.payload === UNBUILT_PAYLOAD) throw unprocessable(NOTHING_TO_RESEND);
    const copy = await store.resend(hook._id, logId, new Date(), deps.retryForMs);
    if (!copy) throw new NotFoundError();
    const until = Date.now() + deps.timeoutMs;
    await deps.sender.sendThrough(hook._id, { id: copy._id, sequence: copy.sequence, until });
    deps.sender.wake();
    const attempt = await attemptOf(hook._id, copy._id, until);
    if (!attempt) return null;
    const status = Number(attempt.responseStatus);
    if (Number.isInteger(status)) return status;
    throw unprocessable(attempt.error ?? attempt.responseBody);
  }

  return { recent, resend };
}

export type HookLogService = ReturnType<typeof createHookLogService>;
