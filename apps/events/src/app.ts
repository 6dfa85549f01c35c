import { EVENTS_API_ENDPOINTS } from '@gl/contracts';
import {
  ProjectionVersion,
  createProjectionRevisions,
  createRuntimeHttpApp,
  serviceVersionKey,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import { createAccessCache } from './access.cache';
import { createActivitySequence } from './activity-sequence';
import { activityLogSubscription, createActivityRecorder, type ActivityRecorder } from './activity.consumer';
import { createAuthorRemovalJob, type AuthorRemovalJob } from './author-removal.job';
import { createEventsModels, type EventsModels } from './events.models';
import { createEventsRouter } from './events.router';
import { createEventsService } from './events.service';
import { createRetentionJob, type RetentionJob } from './retention.job';
import { createLiveStreams, type LiveStreams } from './stream/live-streams';
import type { StreamOptions } from './stream/activity-streams';

export const SERVICE_NAME = 'events';

export interface EventsAppOptions {
  /** How often the retention job runs (default hourly); the deleted-author removal job retries as often. */
  retentionIntervalMs?: number;
  /** How long a deleted author's removal order is kept for a second run (default AUTHOR_REMOVAL_GRACE_MS). */
  authorRemovalGraceMs?: number;
  /** Longest wait for the identity projection to apply a request's revisions (default 2 s), then 503. */
  revisionWaitMs?: number;
  /** Live stream limits (default: EVENTS_STREAM_* settings, else DEFAULT_STREAM_OPTIONS). */
  stream?: Partial<StreamOptions>;
}

/**
 * Composes the events service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createEventsApp(
  runtime: ServiceRuntime,
  options: EventsAppOptions = {},
): ServiceInstance & {
  models: EventsModels;
  recorder: ActivityRecorder;
  retention: RetentionJob;
  authorRemoval: AuthorRemovalJob;
  live: LiveStreams;
} {
  const models = createEventsModels(runtime.connection);
  const sequence = createActivitySequence(runtime.connection);
  const projections = new ProjectionVersion();
  const revisions = createProjectionRevisions(runtime.connection, { maxWaitMs: options.revisionWaitMs });
  const cache = createAccessCache(models, projections, revisions);
  const live = createLiveStreams({
    runtime,
    models,
    sequence,
    cache,
    version: projections,
    revisions,
    options: options.stream,
  });
  // What the jobs remove changes the feeds as a write does (resource versions).
  const feedsChanged = () => runtime.versions.bump([serviceVersionKey(SERVICE_NAME)]);
  const authorRemoval = createAuthorRemovalJob(
    models,
    runtime.logger,
    options.retentionIntervalMs ?? 3_600_000,
    options.authorRemovalGraceMs,
    feedsChanged,
  );
  const recorder = createActivityRecorder(models, sequence, projections, revisions, live.recorded, () =>
    authorRemoval.wake(),
  );
  const retention = createRetentionJob(
    models,
    runtime.logger,
    options.retentionIntervalMs ?? 3_600_000,
    runtime.config.NATS_STREAM_MAX_AGE,
    feedsChanged,
  );
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    serves: EVENTS_API_ENDPOINTS,
    apiRouters: [createEventsRouter(createEventsService(models, projections), cache, revisions), live.router],
  });
  return {
    app,
    models,
    recorder,
    retention,
    authorRemoval,
    live,
    subscriptions: [activityLogSubscription(recorder)],
    start: () => {
      retention.start();
      authorRemoval.start();
    },
    stop: async () => {
      live.stop();
      await retention.stop();
      await authorRemoval.stop();
    },
  };
}
