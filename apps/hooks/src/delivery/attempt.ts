import type { Logger } from 'pino';
import { checkUrl } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';
import type { DeliveryDoc } from './delivery.models';
import type { AttemptRecord } from './delivery.store';
import { sendRequest, SendError } from './http-send';
import {
  deliveryHeaders,
  interpolatedUrl,
  lastAttempt,
  loggedHeaders,
  reasonOf,
  retryDelayMs,
  succeeded,
  type Execution,
} from './request';
import type { SenderOptions } from './sender';

/** What an attempt needs of the sender's options. */
export type AttemptOptions = Pick<
  SenderOptions,
  | 'externalUrl'
  | 'gitlabVersion'
  | 'allowLocalRequests'
  | 'lookup'
  | 'retryBaseMs'
  | 'retryMaxMs'
  | 'timeoutMs'
  | 'maxResponseBytes'
>;

/** A delivery's attempt, to be recorded with the others of its run (delivery.store.ts `recordAttempts`). */
export interface Recorded {
  id: number;
  changes: AttemptRecord;
}

/** One request as WebHookService#make_request sends it, the URL checked again and the checked address used. */
export async function execute(
  options: AttemptOptions,
  hook: HookDoc,
  delivery: DeliveryDoc,
): Promise<Execution> {
  const headers = deliveryHeaders(hook, delivery, options);
  const url = interpolatedUrl(hook);
  const check = await checkUrl(url, {
    allowLocal: options.allowLocalRequests,
    requireResolution: true,
    lookup: options.lookup,
  });
  if (!check.ok)
    return { url, headers, result: null, error: `URL is blocked: ${check.message}`, durationMs: 0 };
  try {
    const result = await sendRequest({
      url: check.url,
      address: check.addresses[0]!,
      headers,
      body: delivery.payload,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      verifyTls: hook.enableSslVerification,
    });
    return { url, headers, result, error: null, durationMs: result.durationMs };
  } catch (err) {
    const durationMs = err instanceof SendError ? err.durationMs : 0;
    return { url, headers, result: null, error: (err as Error).message, durationMs };
  }
}

/**
 * Sends one delivery; resolves with what to record of it (its drain records a run at once) and whether
 * it left the queue (delivered or given up).
 */
export async function attempt(
  options: AttemptOptions,
  logger: Pick<Logger, 'info'> | undefined,
  hook: HookDoc,
  delivery: DeliveryDoc,
): Promise<{ record: Recorded; done: boolean }> {
  const run = await execute(options, hook, delivery);
  const now = new Date();
  const ok = succeeded(run);
  const attempts = delivery.attempts + 1;
  const giveUp = !ok && now.getTime() >= new Date(delivery.giveUpAt).getTime();
  const changes: AttemptRecord = {
    status: ok ? 'delivered' : giveUp ? 'failed' : 'queued',
    attempts,
    nextAttemptAt:
      ok || giveUp
        ? now
        : new Date(now.getTime() + retryDelayMs(attempts, options.retryBaseMs, options.retryMaxMs)),
    url: run.url,
    requestHeaders: loggedHeaders(run.headers),
    reason: reasonOf(run),
    last: lastAttempt(run, now),
  };
  if (!ok)
    logger?.info(
      { hookId: hook._id, deliveryId: delivery._id, attempts, reason: reasonOf(run), giveUp },
      'hook delivery failed',
    );
  return { record: { id: delivery._id, changes }, done: ok || giveUp };
}

/** A delivery whose hook is gone: failed, with the reason, never sent. */
export function hookDeleted(delivery: DeliveryDoc): Recorded {
  return {
    id: delivery._id,
    changes: {
      status: 'failed',
      attempts: delivery.attempts,
      nextAttemptAt: new Date(),
      url: delivery.url,
      requestHeaders: delivery.requestHeaders,
      reason: 'hook deleted',
      last: delivery.last ?? {
        at: new Date(),
        responseStatus: 'internal error',
        responseHeaders: {},
        responseBody: '',
        executionDuration: 0,
        error: 'hook deleted',
      },
    },
  };
}
