import type { Logger } from 'pino';
import { runPeriodically } from '@gl/service-kit';
import { createActivityLogStore } from './activity-log.store';
import type { EventsModels } from './events.models';
import { expireIngested } from './ingested.store';

/** Spec limit: activity events older than two years are removed (GitLab: `2.years.ago`). */
export function retentionCutoff(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - 2);
  return cutoff;
}

/** How long an event's ingestion record outlives the event stream's own retention. */
const INGESTED_MARGIN_MS = 24 * 3_600_000;

export interface RetentionJob {
  /**
   * Deletes every event created before the cutoff, and the ingestion records older than the stream keeps
   * events; returns how many events went.
   */
  runOnce(now?: Date): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/** A periodic delete instead of a TTL index, which FerretDB v1 does not have. */
export function createRetentionJob(
  models: EventsModels,
  logger: Logger,
  intervalMs: number,
  /** The event stream's max age: no event older than this can be delivered again. */
  streamMaxAgeMs: number,
  /** After a run removed events: the feeds changed (resource versions). */
  afterChange?: () => Promise<void>,
): RetentionJob {
  const log = createActivityLogStore(models.activities);
  let stopTimers: (() => void) | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const job: RetentionJob = {
    async runOnce(now = new Date()) {
      const cutoff = retentionCutoff(now);
      const deleted = await log.expire(cutoff);
      if (deleted > 0) {
        logger.info({ deleted, cutoff }, 'expired activity events removed');
        await afterChange?.();
      }
      const recordsCutoff = new Date(now.getTime() - streamMaxAgeMs - INGESTED_MARGIN_MS);
      const records = await expireIngested(models.ingested, recordsCutoff);
      if (records > 0) logger.info({ records, cutoff: recordsCutoff }, 'old ingestion records removed');
      return deleted;
    },
    start() {
      const tick = (): void => {
        running = job.runOnce().catch((err: unknown) => logger.error({ err }, 'retention run failed'));
      };
      // Not at once at start (FIRST_RUN_DELAY_MS): nothing here is urgent.
      stopTimers = runPeriodically(tick, intervalMs);
    },
    async stop() {
      stopTimers?.();
      stopTimers = null;
      await running;
    },
  };
  return job;
}
