import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import type { Logger } from 'pino';
import {
  COMMAND_TYPES,
  LEGACY_COMMAND_TYPES,
  DURABLES,
  repositoryDeleteRequestedData,
  tagsCleanupRequestedData,
  type EventEnvelope,
} from '@gl/contracts';
import { PoisonMessageError, type ServiceMetrics, type Subscription } from '@gl/service-kit';
import { deleteTags, type RegistryDeps } from './registry.service';
import { planTagsCleanup } from './cleanup-plan';

const JOBS = COMMAND_TYPES.registry;
const LEGACY_JOBS = LEGACY_COMMAND_TYPES.registry;
/**
 * How long a worker owns a job it claimed: it renews within this time, else another worker takes the job
 * over. Not the repository's hourly bulk-delete rate limit (repositories.service.ts).
 */
export const JOB_OWNERSHIP_MS = 60_000;
const HEARTBEAT_MS = 10_000;

export interface JobCounts {
  matched: number;
  kept: number;
  deleted: number;
  failed: number;
}

/** Thrown while another live worker owns the job: the message is redelivered later, not processed twice. */
export class JobBusyError extends Error {}

export interface CleanupWorkerOptions {
  maxTagsPerRun: number;
  ownershipMs?: number;
  owner?: string;
  now?: () => Date;
}

function cleanupMetrics(metrics: ServiceMetrics) {
  const existing = metrics.registry.getSingleMetric('registry_cleanup_tags_total');
  const tags =
    (existing as Counter<'kind' | 'outcome'> | undefined) ??
    new Counter({
      name: 'registry_cleanup_tags_total',
      help: 'Tags seen by cleanup jobs, by job kind and outcome (matched, kept, deleted, failed)',
      labelNames: ['kind', 'outcome'],
      registers: [metrics.registry],
    });
  const jobs =
    (metrics.registry.getSingleMetric('registry_cleanup_jobs_total') as
      Counter<'kind' | 'outcome'> | undefined) ??
    new Counter({
      name: 'registry_cleanup_jobs_total',
      help: 'Cleanup jobs finished, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers: [metrics.registry],
    });
  return { tags, jobs };
}

/**
 * The cleanup worker: bulk tag deletes and repository deletes, consumed from JetStream on one durable shared
 * by every worker process (each message goes to one of them). A job record with a renewed owner makes a job
 * run once even when JetStream redelivers it to a second worker during a long run; a killed worker's
 * ownership simply expires, and the redelivered job starts over (selection and deletes are idempotent).
 */
export function cleanupWorker(
  deps: RegistryDeps,
  metrics: ServiceMetrics,
  options: CleanupWorkerOptions,
): Subscription & { lastCounts: () => JobCounts | null } {
  const { repositories, tags, jobs } = deps.stores;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const ownershipMs = options.ownershipMs ?? JOB_OWNERSHIP_MS;
  const ownedUntil = (): Date => new Date(now().getTime() + ownershipMs);
  const now = options.now ?? (() => new Date());
  const counters = cleanupMetrics(metrics);
  let last: JobCounts | null = null;

  async function claim(jobId: string): Promise<'claimed' | 'done'> {
    const outcome = await jobs.claim(jobId, owner, ownedUntil(), now);
    if (outcome.claimed) return 'claimed';
    if (outcome.done) return 'done';
    throw new JobBusyError(`job ${jobId} is running on ${outcome.owner ?? 'another worker'}`);
  }

  async function run(event: EventEnvelope, work: () => Promise<JobCounts>, kind: string, log: Logger) {
    if ((await claim(event.id)) === 'done') return;
    const heartbeat = setInterval(() => {
      void jobs.renew(event.id, owner, ownedUntil()).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const started = Date.now();
      const counts = await work();
      last = counts;
      for (const outcome of ['matched', 'kept', 'deleted', 'failed'] as const)
        counters.tags.inc({ kind, outcome }, counts[outcome]);
      counters.jobs.inc({ kind, outcome: counts.failed > 0 ? 'partial' : 'success' });
      await jobs.finish(event.id, { ...counts });
      log.info({ jobId: event.id, kind, ...counts, ms: Date.now() - started }, 'registry cleanup job done');
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function cleanupTags(event: EventEnvelope): Promise<JobCounts> {
    const data = tagsCleanupRequestedData.safeParse(event.data);
    if (!data.success) throw new PoisonMessageError('invalid cleanup job');
    const repository = await repositories.findById(data.data.repositoryId);
    if (!repository) return { matched: 0, kept: 0, deleted: 0, failed: 0 };
    const { snapshot, selection } = await planTagsCleanup(
      deps,
      repository,
      data.data,
      now(),
      options.maxTagsPerRun,
    );
    if (selection.error)
      deps.logger.warn({ jobId: event.id, error: selection.error }, 'cleanup deleted nothing');
    const outcome = await deleteTags(deps, repository, selection.toDelete, snapshot);
    return { matched: selection.matched, kept: selection.kept, ...outcome };
  }

  async function deleteRepository(event: EventEnvelope): Promise<JobCounts> {
    const data = repositoryDeleteRequestedData.safeParse(event.data);
    if (!data.success) throw new PoisonMessageError('invalid repository delete job');
    const repository = await repositories.findById(data.data.repositoryId);
    if (!repository) return { matched: 0, kept: 0, deleted: 0, failed: 0 };
    await repositories.setStatus(repository._id, 'delete_ongoing');
    const snapshot = await tags.snapshot(repository, now());
    const names = snapshot.tags.map((t) => t.name);
    const outcome = await deleteTags(deps, repository, names, snapshot);
    if (outcome.failed > 0) {
      await repositories.setStatus(repository._id, 'delete_failed');
    } else {
      // Tags pushed while the job ran go with the repository too.
      await tags.removeAll(repository._id);
      await repositories.remove(repository._id);
    }
    return { matched: names.length, kept: outcome.failed, ...outcome };
  }

  return {
    durable: DURABLES.registryCleanup,
    filterSubjects: [
      JOBS.cleanupTags,
      JOBS.deleteRepository,
      LEGACY_JOBS.cleanupTags,
      LEGACY_JOBS.deleteRepository,
    ],
    lastCounts: () => last,
    async handle(event) {
      const log = deps.logger.child({ jobId: event.id });
      if (event.type === JOBS.cleanupTags || event.type === LEGACY_JOBS.cleanupTags) {
        await run(event, () => cleanupTags(event), 'tags', log);
      } else if (event.type === JOBS.deleteRepository || event.type === LEGACY_JOBS.deleteRepository) {
        await run(event, () => deleteRepository(event), 'repository', log);
      }
    },
  };
}
