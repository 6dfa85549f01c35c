import type { Model } from 'mongoose';
import { DURABLES } from '@gl/contracts';
import {
  createCounters,
  type BaseServiceConfig,
  type HostLookup,
  type ServiceRuntime,
  type Subscription,
} from '@gl/service-kit';
import type { Router } from 'express';
import type { HookDoc } from '../hooks.models';
import type { HookedParents } from '../hooked-parents';
import type { HooksService } from '../hooks.service';
import { httpDiscussionsSource, type DiscussionsSource } from '../payloads/discussions-source';
import { cachedAckFloor, jetStreamAckFloor, type AckFloor } from './ack-floor';
import { deliveryConsumer } from './consumer';
import { deliveryConfigSchema, type DeliveryConfig } from './delivery.config';
import { createDeliveryModels, type DeliveryModels } from './delivery.models';
import { createDeliveryStore, type DeliveryStore } from './delivery.store';
import { createHookLogRouter } from './log.router';
import { createHookTestRouter } from './test.router';
import { createHookLogService } from './hook-log.service';
import { createHookTestService } from './hook-test.service';
import { createParentRemoval, type ParentRemoval } from './parent-removal';
import { createQueueBound, setAsideCounter, type QueueBound } from './queue-bound';
import { createHookRateLimiter } from './rate-limits';
import { createSampleStore } from './samples.store';
import { createSender, DEFAULT_SENDER_OPTIONS, type Sender } from './sender';

export { deliveryConfigSchema };

export interface Delivery {
  models: DeliveryModels;
  store: DeliveryStore;
  sender: Sender;
  /** Each hook's queue kept within its bounds (queue-bound.ts); started and stopped with the sender. */
  queueBound: QueueBound;
  subscription: Subscription;
  /** What a deleted project or group takes with it here (its hooks' deliveries, copies, samples). */
  removal: ParentRemoval;
  /** The routes of the hooks' delivery logs and resends (lib/api/hooks/events.rb, resend_hook.rb). */
  logRouter(service: HooksService): Router;
  /** The routes of project and group hook tests (lib/api/hooks/trigger_test.rb). */
  testRouter(service: HooksService): Router;
}

export interface DeliveryDeps {
  runtime: ServiceRuntime<BaseServiceConfig & Partial<DeliveryConfig>>;
  hooks: Model<HookDoc>;
  /** Which parents have hooks (hooked-parents.ts); without it every event reads the hooks. */
  hookedParents?: HookedParents;
  allowLocalRequests: boolean;
  lookup?: HostLookup;
  /** Replaces the HTTP reads from discussions (component tests). */
  source?: DiscussionsSource;
  /** Replaces the `hooks-delivery` durable's ack floor read from JetStream (component tests). */
  ackFloor?: AckFloor;
}

/**
 * How long the sender keeps the ack floor it read: about one pass (its passes follow each other this
 * closely only while deliveries wait for the floor, and a wake after new deliveries reads it again).
 */
const ACK_FLOOR_TTL_MS = 20;

/** The delivery side of the hooks service: the consumer that queues, the sender that sends. */
export function createDelivery(deps: DeliveryDeps): Delivery {
  const { runtime } = deps;
  // Unset keys take their defaults (tests pass only what they change).
  const config = deliveryConfigSchema.parse(
    Object.fromEntries(Object.entries(runtime.config).filter(([key]) => key in deliveryConfigSchema.shape)),
  );
  const models = createDeliveryModels(runtime.connection);
  const store = createDeliveryStore(models, createCounters(runtime.connection));
  // Passes come every few tens of ms while deliveries wait: one log line per 10 s of a failing read.
  let warnedAt = -Infinity;
  const ackFloor =
    deps.ackFloor ??
    cachedAckFloor(jetStreamAckFloor(runtime.bus, DURABLES.hooksDelivery), ACK_FLOOR_TTL_MS, (err) => {
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      runtime.logger.warn(
        { err },
        'hooks: could not read the delivery consumer’s ack floor; using the last one',
      );
    });
  const queueBound = createQueueBound({
    store,
    hooks: deps.hooks,
    bounds: {
      maxDeliveries: config.HOOKS_QUEUE_MAX_DELIVERIES,
      maxAgeMs: config.HOOKS_QUEUE_MAX_AGE_MS,
      checkMs: config.HOOKS_QUEUE_CHECK_MS,
    },
    underLease: (hookId, fn) => sender.underLease(hookId, fn),
    counter: setAsideCounter(runtime.metrics),
    logger: runtime.logger,
  });
  const sender = createSender({
    store,
    hooks: deps.hooks,
    ackFloor,
    logger: runtime.logger,
    whileDraining: (hookId) => queueBound.whileDraining(hookId),
    options: {
      ...DEFAULT_SENDER_OPTIONS,
      externalUrl: config.GITLAB_EXTERNAL_URL,
      gitlabVersion: config.HOOKS_GITLAB_VERSION,
      allowLocalRequests: deps.allowLocalRequests,
      lookup: deps.lookup,
      retryBaseMs: config.HOOKS_RETRY_BASE_MS,
      retryMaxMs: config.HOOKS_RETRY_MAX_MS,
      timeoutMs: config.HOOKS_TIMEOUT_MS,
      leaseMs: config.HOOKS_LEASE_MS,
      pollMs: config.HOOKS_SENDER_POLL_MS,
    },
  });
  const source =
    deps.source ??
    httpDiscussionsSource({
      discussionsUrl: config.DISCUSSIONS_URL,
      externalUrl: config.GITLAB_EXTERNAL_URL,
      contextSecret: runtime.config.INTERNAL_CONTEXT_SECRET,
    });
  const samples = createSampleStore(models);
  const subscription = deliveryConsumer({
    hooks: deps.hooks,
    ...(deps.hookedParents ? { hookedParents: deps.hookedParents } : {}),
    models,
    store,
    samples,
    source,
    externalUrl: config.GITLAB_EXTERNAL_URL,
    retryForMs: config.HOOKS_RETRY_FOR_MS,
    logger: runtime.logger,
    onQueued: () => sender.wake(),
  });
  const logs = createHookLogService({
    store,
    sender,
    // A resend answers its attempt's outcome as GitLab's does when its turn comes within one timeout.
    timeoutMs: config.HOOKS_TIMEOUT_MS,
    retryForMs: config.HOOKS_RETRY_FOR_MS,
  });
  const tests = createHookTestService({
    store,
    samples,
    sender,
    source,
    externalUrl: config.GITLAB_EXTERNAL_URL,
  });
  const limiter = createHookRateLimiter(runtime.connection);
  const logRouter = (service: HooksService) => createHookLogRouter(service, logs, limiter);
  const testRouter = (service: HooksService) => createHookTestRouter(service, tests, limiter);
  const removal = createParentRemoval(models);
  return { models, store, sender, queueBound, subscription, removal, logRouter, testRouter };
}
