import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { checkUrl, type HostLookup } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';
import type { DeliveryAttempt, DeliveryDoc } from './delivery.models';
import type { DeliveryStore } from './delivery.store';
import { sendRequest, SendError, type SendResult } from './http-send';

export interface SenderOptions {
  externalUrl: string;
  gitlabVersion: string;
  allowLocalRequests: boolean;
  lookup?: HostLookup;
  /** First retry after this; each next one waits twice as long, up to `retryMaxMs` (10 s to 1 h). */
  retryBaseMs: number;
  retryMaxMs: number;
  timeoutMs: number;
  /** A hook's queue is held this long per lease, renewed before each request. */
  leaseMs: number;
  pollMs: number;
  maxResponseBytes: number;
}

export const DEFAULT_SENDER_OPTIONS = {
  retryBaseMs: 10_000,
  retryMaxMs: 3_600_000,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  pollMs: 1_000,
  maxResponseBytes: 16 * 1024,
};

/** Where a drain stops: after the delivery `id` (at `sequence` in the hook's order), or at `until` (ms). */
export interface DrainThrough {
  id: number;
  sequence: number;
  until: number;
}

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
export function deliveryHeaders(hook: HookDoc, delivery: DeliveryDoc, options: SenderOptions) {
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
function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  return headers['X-Gitlab-Token'] ? { ...headers, 'X-Gitlab-Token': '[REDACTED]' } : headers;
}

/** What one request did: the URL and headers sent, the answer or why there was none. */
interface Execution {
  url: string;
  headers: Record<string, string>;
  result: SendResult | null;
  error: string | null;
  durationMs: number;
}

const succeeded = (run: Execution): boolean =>
  run.result !== null && run.result.status >= 200 && run.result.status < 300;

const reasonOf = (run: Execution): string | null =>
  succeeded(run) ? null : (run.error ?? `HTTP ${run.result!.status}`);

function lastAttempt(run: Execution, at: Date): DeliveryAttempt {
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

/**
 * Sends each hook's queue in sequence order, one hook at a time per lease, so that any number of
 * replicas run it: WebHookWorker's job, with retries kept in the database instead of a job queue.
 */
export function createSender(deps: {
  store: DeliveryStore;
  hooks: Model<HookDoc>;
  options: SenderOptions;
  logger?: Logger;
}) {
  const { store, hooks, options, logger } = deps;
  const owner = randomUUID();
  /** The hooks this replica is draining now (a pass and a resend may both try one). */
  const draining = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;
  /** Woken while a pass ran: the next one starts at once. */
  let again = false;

  /** One request as WebHookService#make_request sends it, the URL checked again and the checked address used. */
  async function execute(hook: HookDoc, delivery: DeliveryDoc): Promise<Execution> {
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

  async function attempt(hook: HookDoc, delivery: DeliveryDoc): Promise<void> {
    const run = await execute(hook, delivery);
    const now = new Date();
    const ok = succeeded(run);
    const attempts = delivery.attempts + 1;
    const giveUp = !ok && now.getTime() >= new Date(delivery.giveUpAt).getTime();
    await store.recordAttempt(delivery._id, {
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
    });
    if (!ok)
      logger?.info(
        { hookId: hook._id, deliveryId: delivery._id, attempts, reason: reasonOf(run), giveUp },
        'hook delivery failed',
      );
  }

  /**
   * Sends what is due of one hook's queue, in order, while holding its lease (and, within this replica,
   * while no other pass or resend drains it: they share the lease's owner). With `through`, stops once
   * that delivery was attempted, or before a request that would start after `through.until`.
   */
  async function drainHook(hookId: number, through?: DrainThrough): Promise<void> {
    if (draining.has(hookId)) return;
    draining.add(hookId);
    try {
      if (await store.takeLease(hookId, owner, options.leaseMs)) await drainLeased(hookId, through);
    } finally {
      draining.delete(hookId);
    }
  }

  async function drainLeased(hookId: number, through?: DrainThrough): Promise<void> {
    try {
      for (;;) {
        if (stopped) return;
        const delivery = await store.head(hookId);
        if (!delivery) return;
        if (through && (delivery.sequence > through.sequence || Date.now() >= through.until)) return;
        if (new Date(delivery.nextAttemptAt).getTime() > Date.now()) {
          // What waits behind a retry is due no sooner, so it does not fill the passes meanwhile.
          await store.holdBehind(hookId, new Date(delivery.nextAttemptAt));
          return;
        }
        // Renewed before each request: a lease never lapses while its owner is sending.
        if (!(await store.takeLease(hookId, owner, options.leaseMs))) return;
        const hook = await hooks.findById(hookId).lean<HookDoc>().exec();
        if (!hook) {
          await store.recordAttempt(delivery._id, {
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
          });
          continue;
        }
        await attempt(hook, delivery);
        if (delivery._id === through?.id) return;
      }
    } finally {
      await store.releaseLease(hookId, owner);
    }
  }

  /** One pass over every hook with something due. */
  async function runOnce(): Promise<void> {
    const ids = await store.dueHookIds(new Date());
    for (const id of ids) {
      if (stopped) return;
      await drainHook(id);
    }
  }

  function schedule(delayMs = options.pollMs): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((err: unknown) => logger?.error({ err }, 'hook sender pass failed'))
        .finally(() => {
          running = null;
          schedule(again ? 0 : options.pollMs);
          again = false;
        });
    }, delayMs);
    timer.unref();
  }

  return {
    runOnce,
    /**
     * A resend's turn (hook-log.service.ts): the hook's queue sent now, in order, up to and including the
     * delivery `through.id`; nothing when another sender holds the hook's queue.
     */
    sendThrough: (hookId: number, through: DrainThrough): Promise<void> => drainHook(hookId, through),
    /**
     * A test delivery (TestHooks::BaseService runs `hook.execute(data, trigger_key, force: true)`): sent at
     * once, outside the hook's queue and never retried, and logged as it ended.
     */
    async sendOnce(hook: HookDoc, delivery: DeliveryDoc): Promise<DeliveryDoc> {
      const run = await execute(hook, delivery);
      const now = new Date();
      const logged: DeliveryDoc = {
        ...delivery,
        status: succeeded(run) ? 'delivered' : 'failed',
        attempts: 1,
        nextAttemptAt: now,
        url: run.url,
        requestHeaders: loggedHeaders(run.headers),
        reason: reasonOf(run),
        last: lastAttempt(run, now),
        updatedAt: now,
      };
      await store.log(logged);
      return logged;
    },
    start(): void {
      stopped = false;
      schedule();
    },
    /** Runs a pass now (deliveries were just queued) unless one is running; a no-op before start. */
    wake(): void {
      if (stopped || !timer) return;
      if (running) {
        again = true;
        return;
      }
      clearTimeout(timer);
      schedule(0);
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
