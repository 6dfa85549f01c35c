import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { groupedCalls, type HostLookup } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';
import type { DeliveryDoc } from './delivery.models';
import { queuedAfter, type DeliveryStore } from './delivery.store';
import type { AckFloor } from './ack-floor';
import { attempt, execute, hookDeleted, type Recorded } from './attempt';
import { mapBounded } from './bounded';
import { createFloorBackoff } from './floor-backoff';
import { lastAttempt, loggedHeaders, reasonOf, succeeded } from './request';

export { interpolatedUrl, retryDelayMs } from './request';

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
  /** Hooks a pass sends to at once (each hook's own queue stays one request at a time, in order). */
  concurrency: number;
  /**
   * The next pass after one that left deliveries waiting for the ack floor (ack-floor.ts), doubling while
   * the floor does not move, up to `floorRetryMaxMs` (floor-backoff.ts).
   */
  floorRetryMs: number;
  floorRetryMaxMs: number;
}

export const DEFAULT_SENDER_OPTIONS = {
  retryBaseMs: 10_000,
  retryMaxMs: 3_600_000,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  pollMs: 1_000,
  maxResponseBytes: 16 * 1024,
  concurrency: 64,
  floorRetryMs: 25,
  floorRetryMaxMs: 1_000,
};

/** Where a drain stops: after the delivery `id` (at `sequence` in the hook's order), or at `until` (ms). */
export interface DrainThrough {
  id: number;
  sequence: number;
  until: number;
}

const throughDoc = (through: DrainThrough) => ({ sequence: through.sequence, _id: through.id });

/** Deliveries of a hook's queue read at once while it is drained. */
const HEAD_READ = 8;

/**
 * What a sender pass read once for all its hooks: the ack floor (ack-floor.ts) and the due hooks'
 * documents (null: deleted); a resend's drain reads its hook itself.
 */
interface PassView {
  floor: number;
  hooks?: Map<number, HookDoc | null>;
}

/**
 * Sends each hook's queue in sequence order, one sender at a time per hook (its lease), so that any number
 * of replicas run it: WebHookWorker's job, with retries kept in the database instead of a job queue. With
 * `ackFloor`, a delivery goes only once the delivery consumer's ack floor reached its sequence (ack-floor.ts):
 * nothing recorded before it can be queued after it then.
 */
export function createSender(deps: {
  store: DeliveryStore;
  hooks: Model<HookDoc>;
  options: SenderOptions;
  ackFloor?: AckFloor;
  logger?: Logger;
  /**
   * Run under the lease before each read of a hook's queue while draining it (queue-bound.ts: the queue's
   * bounds, checked by whoever holds it).
   */
  whileDraining?: (hookId: number) => Promise<void>;
}) {
  const { store, hooks, options, logger } = deps;
  const readFloor = () => deps.ackFloor?.read() ?? Promise.resolve(Infinity);
  const owner = randomUUID();
  /** The hooks this replica is draining now (a pass and a resend may both try one). */
  const draining = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;
  /** Woken while a pass ran: the next one starts at once. */
  let again = false;
  /**
   * A pass left a hook's next delivery waiting for the ack floor, or found the hook's lease with another
   * replica: the next pass comes soon.
   */
  let held = false;
  /**
   * Hooks whose next delivery waited for the floor at this value. Until the floor moves nothing of theirs
   * can go (no delivery at or below it can be queued any more), so passes skip them without a read.
   */
  const heldAt = new Map<number, number>();
  const floorBackoff = createFloorBackoff(options.floorRetryMs, options.floorRetryMaxMs);
  /** The floor the last pass read (-1: it read none). */
  let passFloor = -1;
  // A pass drains its hooks concurrently: their leases, releases and records each share round trips.
  const takeLease = groupedCalls((ids: number[]) => store.takeLeases(ids, owner, options.leaseMs));
  const releaseLease = groupedCalls(async (ids: number[]) => {
    await store.releaseLeases(ids, owner);
    return ids.map(() => undefined);
  });
  const recordRuns = groupedCalls(async (runs: Recorded[][]) => {
    await store.recordAttempts(runs.flat());
    return runs.map(() => undefined);
  });

  /**
   * Runs `fn` holding the hook's queue: its lease, and within this replica no drain of it meanwhile. False
   * when another holds it.
   */
  async function underLease(hookId: number, fn: () => Promise<void>): Promise<boolean> {
    if (draining.has(hookId)) return false;
    draining.add(hookId);
    try {
      if (!(await takeLease(hookId))) return false;
      try {
        await fn();
      } finally {
        await releaseLease(hookId);
      }
      return true;
    } finally {
      draining.delete(hookId);
    }
  }

  /**
   * Sends what is due of one hook's queue, in order, while holding its lease (and, within this replica,
   * while no other pass or resend drains it: they share the lease's owner). With `through`, stops once
   * that delivery was attempted, or before a request that would start after `through.until`.
   */
  async function drainHook(hookId: number, view: PassView, through?: DrainThrough): Promise<void> {
    if (draining.has(hookId)) return;
    draining.add(hookId);
    try {
      const leasedAt = Date.now();
      if (await takeLease(hookId)) await drainLeased(hookId, view, leasedAt, through);
      // Another replica drains it: what was queued meanwhile may be left to us, so look again soon.
      else held = true;
    } finally {
      draining.delete(hookId);
    }
  }

  async function drainLeased(
    hookId: number,
    view: PassView,
    leasedAt: number,
    through?: DrainThrough,
  ): Promise<void> {
    // The hook as the pass read it serves its first run of the queue; each later run reads it again.
    let known = view.hooks?.get(hookId);
    try {
      for (;;) {
        await deps.whileDraining?.(hookId);
        // The next few of the queue at once. Under the lease nothing else sends them, and nothing can be
        // queued before them: they are at or below the ack floor (a resend goes after the last queued).
        const next = await store.queuedHead(hookId, HEAD_READ);
        // Their outcomes are written together once the run ends, before the queue is read again: a crash
        // in between sends them again, under the same Idempotency-Key (at least once, as promised).
        const recorded: Recorded[] = [];
        let outcome: 'more' | 'retrying' | 'stop';
        try {
          outcome = await sendRun(
            hookId,
            next,
            known,
            view,
            through,
            () => {
              if (leasedAt + options.leaseMs - Date.now() >= 2 * options.timeoutMs) return true;
              leasedAt = Date.now();
              return takeLease(hookId);
            },
            recorded,
          );
        } finally {
          if (recorded.length > 0) await recordRuns(recorded);
        }
        known = undefined;
        if (outcome === 'stop') return;
        // A short read was the whole queue: what was queued since, the pass its consumer's wake runs sends.
        if (outcome !== 'retrying' && next.length < HEAD_READ) return;
      }
    } finally {
      await releaseLease(hookId);
    }
  }

  /**
   * Sends a run of a hook's queue in order, adding each outcome to `recorded`; `stop` when the drain ends
   * here, `retrying` when a delivery stays queued for a later retry, `more` when the run was sent.
   */
  async function sendRun(
    hookId: number,
    run: DeliveryDoc[],
    known: HookDoc | null | undefined,
    view: PassView,
    through: DrainThrough | undefined,
    renewLease: () => boolean | Promise<boolean>,
    recorded: Recorded[],
  ): Promise<'more' | 'retrying' | 'stop'> {
    // Read once per run: an edit of the hook counts from the next run on.
    let hook = known;
    for (const delivery of run) {
      if (stopped) return 'stop';
      if (through && (queuedAfter(delivery, throughDoc(through)) || Date.now() >= through.until))
        return 'stop';
      if (delivery.sequence > view.floor) {
        held = true;
        heldAt.set(hookId, view.floor);
        return 'stop';
      }
      if (new Date(delivery.nextAttemptAt).getTime() > Date.now()) {
        // What waits behind a retry is due no sooner, so it does not fill the passes meanwhile.
        await store.holdBehind(hookId, new Date(delivery.nextAttemptAt));
        return 'stop';
      }
      // Renewed before a request that could outlast it: a lease never lapses while its owner sends.
      if (!(await renewLease())) return 'stop';
      if (hook === undefined) hook = await hooks.findById(hookId).lean<HookDoc>().exec();
      if (!hook) {
        recorded.push(hookDeleted(delivery));
        continue;
      }
      const { record, done } = await attempt(options, logger, hook, delivery);
      recorded.push(record);
      if (delivery._id === through?.id) return 'stop';
      // Still queued (a retry is due later): the next read finds it first and holds the rest behind it.
      if (!done) return 'retrying';
    }
    return 'more';
  }

  /** One pass over every hook with something due, `options.concurrency` hooks at a time. */
  async function runOnce(): Promise<void> {
    held = false;
    passFloor = -1;
    const ids = await store.dueHookIds(new Date());
    if (ids.length === 0) return;
    const floor = await readFloor();
    passFloor = floor;
    // A hook whose next delivery waited for this same floor still waits: skipped without a read.
    const due = ids.filter((id) => {
      if (heldAt.get(id) !== floor) return true;
      held = true;
      return false;
    });
    for (const id of due) heldAt.delete(id);
    if (due.length === 0) return;
    const found = await hooks
      .find({ _id: { $in: due } })
      .lean<HookDoc[]>()
      .exec();
    const view: PassView = { floor, hooks: new Map(due.map((id) => [id, null])) };
    for (const hook of found) view.hooks!.set(hook._id, hook);
    await mapBounded(due, options.concurrency, async (id) => {
      if (!stopped) await drainHook(id, view);
    });
  }

  function schedule(delayMs = options.pollMs): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((err: unknown) => logger?.error({ err }, 'hook sender pass failed'))
        .finally(() => {
          running = null;
          if (!held) floorBackoff.reset();
          schedule(
            again ? 0 : held ? Math.min(floorBackoff.held(passFloor), options.pollMs) : options.pollMs,
          );
          again = false;
        });
    }, delayMs);
    timer.unref();
  }

  return {
    runOnce,
    underLease,
    /**
     * A resend's turn (hook-log.service.ts): the hook's queue sent now, in order, up to and including the
     * delivery `through.id`; nothing when another sender holds the hook's queue.
     */
    sendThrough: async (hookId: number, through: DrainThrough): Promise<void> =>
      drainHook(hookId, { floor: await readFloor() }, through),
    /**
     * A test delivery (TestHooks::BaseService runs `hook.execute(data, trigger_key, force: true)`): sent at
     * once, outside the hook's queue and never retried, and logged as it ended.
     */
    async sendOnce(hook: HookDoc, delivery: DeliveryDoc): Promise<DeliveryDoc> {
      const run = await execute(options, hook, delivery);
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
      deps.ackFloor?.invalidate();
      // Deliveries were acknowledged: the floor has likely moved.
      floorBackoff.reset();
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
