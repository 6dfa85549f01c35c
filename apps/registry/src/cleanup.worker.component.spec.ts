import { randomUUID } from 'node:crypto';
import { COMMAND_TYPES, LEGACY_COMMAND_TYPES, DURABLES, type EventEnvelope } from '@gl/contracts';
import { createLogger, createMetrics } from '@gl/service-kit';
import { cleanupWorker, JobBusyError } from './cleanup.worker';
import { LARGE_DELETE, deleteTags } from './registry.service';
import { startRegistryHarness, type SeededProject } from './testing/registry.harness';
import { useHarness } from '@gl/testing';

const DAY = 86_400_000;

function job(type: string, data: Record<string, unknown>): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'registry',
    correlationId: null,
    actor: null,
    projectId: null,
    groupId: null,
    data,
  };
}

describe('registry cleanup worker', () => {
  const h = useHarness(startRegistryHarness);
  let p: SeededProject;
  beforeAll(async () => {
    p = await h.seedProject('worker-group/worker-project');
  });

  async function repositoryWith(name: string, tags: [string, number][]): Promise<number> {
    let id = 0;
    for (const [tag, ageDays] of tags) {
      id = await h.pushTag(
        `${p.fullPath}/${name}`,
        tag,
        undefined,
        new Date(Date.now() - ageDays * DAY).toISOString(),
      );
    }
    return id;
  }
  /** A worker of its own over the same stores, as another worker process would be. */
  const otherWorker = (n: number, maxTagsPerRun: number) =>
    cleanupWorker(
      { stores: h.stores, logger: createLogger(`w${n}`, 'silent'), client: null },
      createMetrics(`registry-worker-${n}`),
      { maxTagsPerRun },
    );
  const names = async (repositoryId: number) =>
    (await h.models.tags.find({ repositoryId }).sort({ name: 1 }).lean()).map((t) => t.name);
  const cleanup = (repositoryId: number, rules: Record<string, unknown>) =>
    job(COMMAND_TYPES.registry.cleanupTags, {
      repositoryId,
      nameRegexDelete: '.*',
      nameRegexKeep: null,
      keepN: null,
      olderThan: null,
      ...rules,
    });

  it('When subscribed, then it consumes both command subjects (and their older names) on the registry-cleanup durable', () => {
    expect(h.worker.durable).toBe(DURABLES.registryCleanup);
    expect(h.worker.filterSubjects).toEqual([
      COMMAND_TYPES.registry.cleanupTags,
      COMMAND_TYPES.registry.deleteRepository,
      LEGACY_COMMAND_TYPES.registry.cleanupTags,
      LEGACY_COMMAND_TYPES.registry.deleteRepository,
    ]);
    // Commands are not domain events: no consumer of `gl.>` receives them.
    expect(COMMAND_TYPES.registry.cleanupTags.startsWith('gl.')).toBe(false);
  });

  it('When a job queued by an older build arrives under its old subject, then it still runs', async () => {
    const id = await repositoryWith('legacy', [['old', 90]]);
    const legacy = { ...cleanup(id, {}), type: LEGACY_COMMAND_TYPES.registry.cleanupTags };
    await h.worker.handle(legacy);
    expect(await names(id)).toEqual([]);
  });

  it('When a bulk delete runs, then it applies the rules and reports matched, kept, deleted, failed', async () => {
    const id = await repositoryWith('rules', [
      ['latest', 90],
      ['v1', 60],
      ['v2', 40],
      ['v3', 5],
      ['keep-me', 90],
    ]);
    await h.worker.handle(
      cleanup(id, { nameRegexDelete: 'v.*|keep-me', nameRegexKeep: 'keep-.*', keepN: 1, olderThan: '30d' }),
    );
    expect(await names(id)).toEqual(['keep-me', 'latest', 'v3']);
    expect(h.worker.lastCounts()).toEqual({ matched: 4, kept: 2, deleted: 2, failed: 0 });
    const metrics = await h.runtime.metrics.registry.getSingleMetricAsString('registry_cleanup_tags_total');
    expect(metrics).toContain('outcome="deleted"');
  });

  it('When the same job is delivered again after it finished, then nothing more happens', async () => {
    const id = await repositoryWith('again', [
      ['a', 10],
      ['b', 10],
    ]);
    const event = cleanup(id, { nameRegexDelete: 'a' });
    await h.worker.handle(event);
    await h.pushTag(`${p.fullPath}/again`, 'a');
    await h.worker.handle(event);
    expect(await names(id)).toEqual(['a', 'b']);
  });

  it('When another live worker owns the job, then this one refuses it (redelivered later)', async () => {
    const id = await repositoryWith('busy', [['a', 10]]);
    const event = cleanup(id, {});
    await h.models.jobs.create({
      _id: event.id,
      state: 'running',
      owner: 'other-worker',
      leaseUntil: new Date(Date.now() + 60_000),
    });
    await expect(h.worker.handle(event)).rejects.toBeInstanceOf(JobBusyError);
    expect(await names(id)).toEqual(['a']);
  });

  it('When the owner was killed mid-job (lease expired), then another worker takes it over and finishes', async () => {
    const id = await repositoryWith('killed', [
      ['a', 10],
      ['b', 10],
    ]);
    const event = cleanup(id, {});
    // The dead worker deleted one tag and left its running record behind.
    await h.models.tags.deleteOne({ repositoryId: id, name: 'a' });
    await h.models.jobs.create({
      _id: event.id,
      state: 'running',
      owner: 'dead-worker',
      leaseUntil: new Date(Date.now() - 1),
    });
    await h.worker.handle(event);
    expect(await names(id)).toEqual([]);
    expect(await h.models.jobs.findById(event.id).lean()).toMatchObject({ state: 'done' });
  });

  it('When two workers get the same job at once, then it is processed once', async () => {
    const id = await repositoryWith('race', [
      ['a', 10],
      ['b', 10],
    ]);
    const second = otherWorker(2, 0);
    const event = cleanup(id, {});
    const results = await Promise.allSettled([h.worker.handle(event), second.handle(event)]);
    const done = [h.worker.lastCounts(), second.lastCounts()].filter((c) => c?.deleted === 2);
    expect(await names(id)).toEqual([]);
    // Either the loser saw the job running (busy, retried later) or already done (acked, nothing done).
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof JobBusyError),
    ).toBe(true);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect((await h.models.jobs.findById(event.id).lean())?.state).toBe('done');
  });

  async function largeRepository(name: string): Promise<number> {
    const id = await repositoryWith(name, [['latest', 1]]);
    const now = Date.now();
    await h.models.tags.insertMany(
      Array.from({ length: LARGE_DELETE + 100 }, (_, i) => ({
        _id: `${id}:t${String(i).padStart(5, '0')}`,
        repositoryId: id,
        name: `t${String(i).padStart(5, '0')}`,
        digest: null,
        revision: null,
        createdAt: new Date(now - i * 60_000),
        totalSize: 1,
        pushedAt: new Date(now),
      })),
    );
    return id;
  }
  const tagNames = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `t${String(from + i).padStart(5, '0')}`);

  it('When a bulk delete is large, then the selected tags go by id and the survivors stay', async () => {
    const id = await largeRepository('large');
    await h.worker.handle(cleanup(id, { keepN: 10 }));
    expect(await names(id)).toEqual(['latest', ...tagNames(0, 10)]);
    expect(h.worker.lastCounts()).toMatchObject({ matched: LARGE_DELETE + 100, kept: 10, failed: 0 });
  });

  it('When a tag is written while a large delete runs, then it stays and the others still go', async () => {
    const id = await largeRepository('large-repushed');
    const repository = (await h.models.repositories.findById(id).lean())!;
    const snapshot = {
      tags: (await h.models.tags.find({ repositoryId: id }).lean()).map((t) => ({
        name: t.name,
        digest: null,
      })),
      takenAt: new Date(),
      tagsVersion: repository.tagsVersion ?? 0,
    };
    // t00500 is pushed again after the snapshot: a newer write time and a new tags version.
    await h.models.tags.updateOne(
      { _id: `${id}:t00500` },
      { $set: { writtenAt: new Date(Date.now() + 60_000) } },
    );
    await h.stores.tags.touch(id);
    const deps = { stores: h.stores, logger: createLogger('registry-test', 'silent'), client: null };
    await deleteTags(deps, repository, tagNames(10, LARGE_DELETE + 100), snapshot);
    expect(await names(id)).toEqual(['latest', ...tagNames(0, 10), 't00500']);
  });

  it('When older_than is unparsable, then nothing is deleted', async () => {
    const id = await repositoryWith('garbage', [['a', 400]]);
    await h.worker.handle(cleanup(id, { olderThan: 'garbage' }));
    expect(await names(id)).toEqual(['a']);
    expect(h.worker.lastCounts()).toEqual({ matched: 1, kept: 1, deleted: 0, failed: 0 });
  });

  it('When a per-run cap is configured, then one run deletes at most that many, oldest first', async () => {
    const id = await repositoryWith('capped', [
      ['new', 1],
      ['old', 30],
      ['mid', 10],
    ]);
    const capped = otherWorker(3, 2);
    await capped.handle(cleanup(id, {}));
    expect(await names(id)).toEqual(['new']);
    expect(capped.lastCounts()).toEqual({ matched: 3, kept: 1, deleted: 2, failed: 0 });
  });

  it('When a repository delete runs, then its tags and then the repository are gone, and a rerun is harmless', async () => {
    const id = await repositoryWith('doomed', [
      ['latest', 1],
      ['v1', 2],
    ]);
    const event = job(COMMAND_TYPES.registry.deleteRepository, { repositoryId: id });
    await h.worker.handle(event);
    expect(await h.models.repositories.findById(id).lean()).toBeNull();
    expect(await h.models.tags.countDocuments({ repositoryId: id })).toBe(0);
    expect(h.worker.lastCounts()).toEqual({ matched: 2, kept: 0, deleted: 2, failed: 0 });
    await h.worker.handle({ ...event, id: randomUUID() });
  });

  it('When a job’s payload is invalid, then it is poison', async () => {
    await expect(
      h.worker.handle(job(COMMAND_TYPES.registry.cleanupTags, { repositoryId: 'x' })),
    ).rejects.toThrow('invalid cleanup job');
  });
});
