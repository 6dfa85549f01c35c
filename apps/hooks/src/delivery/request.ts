import { randomUUID } from 'node:crypto';
import type { HookDoc } from '../hooks.models';
import type { DeliveryAttempt, DeliveryDoc } from './delivery.models';
import type { SendResult } from './http-send';

// One request of a delivery as WebHookService (app/services/web_hook_service.rb) builds and logs it.

/** Back-off after `attempts` failed attempts: base, 2×base, 4×base… at most `max`. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** WebHook#interpolated_url (app/models/hooks/web_hook.rb): `{name}` replaced by its URL variable. */
export function interpolatedUrl(hook: Pick<HookDoc, 'url' | 'urlVariables'>): string {
  const vars = new Map(hook.urlVariables.map((v) => [v.key, v.value]));
  return hook.url.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, key: string) => vars.get(key) ?? whole);
}

/** WebHookService#build_headers, then the hook's custom headers (which cannot override GitLab's). */
export function deliveryHeaders(
  hook: HookDoc,
  delivery: DeliveryDoc,
  options: { gitlabVersion: string; externalUrl: string },
) {
  const headers: Record<string, string> = {};
  for (const { key, value } of hook.customHeaders) headers[key] = value;
  Object.assign(headers, {
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${options.gitlabVersion}`,
    'X-Gitlab-Event': delivery.eventName,
    'X-Gitlab-Webhook-UUID': randomUUID(),
    'X-Gitlab-Instance': options.externalUrl.replace(/\/+$/, ''),
    'X-Gitlab-Event-UUID': delivery.eventUuid,
    'Idempotency-Key': delivery.idempotencyKey,
  });
  if (hook.token) headers['X-Gitlab-Token'] = hook.token;
  return headers;
}

/** Headers as the log shows them: the token masked (WebHookService#log_execution). */
export function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  return headers['X-Gitlab-Token'] ? { ...headers, 'X-Gitlab-Token': '[REDACTED]' } : headers;
}

/** What one request did: the URL and headers sent, the answer or why there was none. */
export interface Execution {
  url: string;
  headers: Record<string, string>;
  result: SendResult | null;
  error: string | null;
  durationMs: number;
}

export const succeeded = (run: Execution): boolean =>
  run.result !== null && run.result.status >= 200 && run.result.status < 300;

export const reasonOf = (run: Execution): string | null =>
  succeeded(run) ? null : (run.error ?? `HTTP ${run.result!.status}`);

export function lastAttempt(run: Execution, at: Date): DeliveryAttempt {
  return {
    at,
    // WebHookLog's response_status: the code, or "internal error" without an answer.
    responseStatus: run.result ? String(run.result.status) : 'internal error',
    responseHeaders: run.result?.headers ?? {},
    responseBody: run.result?.body ?? run.error ?? '',
    executionDuration: run.durationMs / 1000,
    error: run.error,
  };
}
