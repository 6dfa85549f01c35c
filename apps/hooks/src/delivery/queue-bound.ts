import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { createBackgroundJob, type BackgroundJob, type ServiceMetrics } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';
import type { DeliveryStore } from './delivery.store';

export interface QueueBounds {
  /** Most deliveries a hook's queue holds; past it the oldest are set aside. */
  maxDeliveries: number;
  /** Deliveries queued longer than this are set aside. */
  maxAgeMs: number;
  /** How often every hook's queue is checked (and, while a sender drains a hook, that hook's). */
  checkMs: number;
}

/** Why a delivery was set aside: the metric's `reason` label, and the log's words. */
const REASONS = {
  count: (bounds: QueueBounds) =>
    `set aside: the hook's queue held more than ${bounds.maxDeliveries} deliveries`,
  age: (bounds: QueueBounds) => `set aside: queued for more than ${duration(bounds.maxAgeMs)}`,
} as const;

/** `ms` in the largest whole unit that states it exactly (7 days, 36 hours, 90 seconds). */
function duration(ms: number): string {
  const units: [string, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1_000],
  ];
  const [unit, size] = units.find(([, size]) => ms % size === 0) ?? ['millisecond', 1];
  const n = ms / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Hooks read at once by a sweep. */
const SWEEP_PAGE = 500;

/** `hook_deliveries_set_aside_total{reason}` on the process's registry (made once per registry). */
export function setAsideCounter(metrics: Pick<ServiceMetrics, 'registry'>): Counter<'reason'> {
  const name = 'hook_deliveries_set_aside_total';
  return (
    (metrics.registry.getSingleMetric(name) as Counter<'reason'> | undefined) ??
    new Counter({
      name,
      help: "Webhook deliveries set aside unsent because their hook's queue was over its bounds, by bound (count, age)",
      labelNames: ['reason'],
      registers: [metrics.registry],
    })
  );
}

/**
 * Runs `fn` while holding the hook's queue (the sender's lease, sender.ts); false when another sender
 * holds it.
 */
export type UnderLease = (hookId: number, fn: () => Promise<void>) => Promise<boolean>;

/**
 * Bounded queues: a hook whose receiver never comes back must not grow its queue without end. Past
 * `maxDeliveries`, or for deliveries queued longer than `maxAgeMs`, the oldest of its queue are set aside:
 * marked failed with the reason, as a given-up delivery is, so they stay in the log, counted by
 * `hook_deliveries_set_aside_total`, with one log line per hook per check. Only a head of the queue (in
 * `{sequence, _id}` order) is set aside, so what stays keeps its order, and only under the hook's lease,
 * so no sender is sending what is set aside.
 *
 * Checked cheaply: a periodic sweep reads each hook's queue head and its `maxDeliveries`-th newest along the
 * queue index (no count), and takes the lease only for a hook past a bound; a hook whose lease another
 * replica's sender keeps while draining a long queue is checked by that sender (`whileDraining`).
 */
export function createQueueBound(deps: {
  store: Pick<DeliveryStore, 'overflow' | 'setAside'>;
  hooks: Model<HookDoc>;
  bounds: QueueBounds;
  underLease: UnderLease;
  counter: Counter<'reason'>;
  logger?: Pick<Logger, 'warn' | 'error'>;
  now?: () => Date;
}) {
  const { store, bounds, counter, logger } = deps;
  const now = deps.now ?? (() => new Date());
  /** When this process last checked a hook while draining it (at most once per `checkMs`). */
  const checkedAt = new Map<number, number>();

  /** Sets aside what is over the hook's bounds; to be run under its lease. Resolves how many. */
  async function enforce(hookId: number): Promise<number> {
    const at = now();
    checkedAt.set(hookId, at.getTime());
    const over = await store.overflow(hookId, bounds.maxDeliveries, new Date(at.getTime() - bounds.maxAgeMs));
    if (!over) return 0;
    const byAge = over.age
      ? await store.setAside(hookId, over.age.keepFrom, REASONS.age(bounds), at, over.age.cutoff)
      : 0;
    const byCount = over.count
      ? await store.setAside(hookId, over.count.keepFrom, REASONS.count(bounds), at)
      : 0;
    if (byAge > 0) counter.inc({ reason: 'age' }, byAge);
    if (byCount > 0) counter.inc({ reason: 'count' }, byCount);
    if (byAge + byCount > 0)
      logger?.warn(
        { hookId, setAside: { age: byAge, count: byCount }, bounds },
        "hooks: a hook's queue was over its bounds; its oldest deliveries were set aside",
      );
    return byAge + byCount;
  }

  /** The sender's check of a hook it drains, under the lease it holds: once per `checkMs` at most. */
  async function whileDraining(hookId: number): Promise<void> {
    const last = checkedAt.get(hookId);
    if (last !== undefined && now().getTime() - last < bounds.checkMs) return;
    await enforce(hookId);
  }

  /** Every hook's queue checked; the lease taken only for one past a bound. Resolves how many were set aside. */
  async function sweep(): Promise<number> {
    let total = 0;
    let after = -1;
    for (;;) {
      const page = await deps.hooks
        .find({ _id: { $gt: after } }, { _id: 1 })
        .sort({ _id: 1 })
        .limit(SWEEP_PAGE)
        .lean<Pick<HookDoc, '_id'>[]>()
        .exec();
      for (const { _id: hookId } of page) {
        const cutoff = new Date(now().getTime() - bounds.maxAgeMs);
        if (!(await store.overflow(hookId, bounds.maxDeliveries, cutoff))) continue;
        await deps.underLease(hookId, async () => {
          total += await enforce(hookId);
        });
      }
      if (page.length < SWEEP_PAGE) break;
      after = page[page.length - 1]!._id;
    }
    // Forget the checks of hooks not drained for a while (deleted ones among them).
    const stale = now().getTime() - 2 * bounds.checkMs;
    for (const [hookId, at] of checkedAt) if (at < stale) checkedAt.delete(hookId);
    return total;
  }

  const job: BackgroundJob<number> = createBackgroundJob(sweep, {
    intervalMs: bounds.checkMs,
    logger: { error: (fields, message) => logger?.error(fields, message) },
    failure: "hooks: the check of the hooks' queue bounds failed",
  });

  return { enforce, whileDraining, sweep, start: () => job.start(), stop: () => job.stop() };
}

export type QueueBound = ReturnType<typeof createQueueBound>;
