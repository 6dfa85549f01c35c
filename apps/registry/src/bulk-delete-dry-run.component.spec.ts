import {
  BULK_DELETE_DRY_RUN_NAMES,
  ENDPOINTS,
  bulkDeleteDryRunEntity,
  tagsCleanupRequestedData,
  type BulkDeleteDryRunEntity,
} from '@gl/contracts';
import { buildOpenApiDocument, createLogger, createMetrics } from '@gl/service-kit';
import { DEVELOPER, MAINTAINER, REPORTER, useHarness } from '@gl/testing';
import { cleanupWorker } from './cleanup.worker';
import type { RegistryStores } from './stores';
import { CLEANUP_RATE_LIMITED } from './registry.router';
import { startRegistryHarness, type SeededProject } from './testing/registry.harness';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const pad = (i: number) => `t${String(i).padStart(5, '0')}`;

describe('DELETE /projects/:id/registry/repositories/:repository_id/tags?dry_run=true', () => {
  const h = useHarness(startRegistryHarness);
  let p: SeededProject;
  beforeAll(async () => {
    p = await h.seedProject('dry-group/dry-project');
  });

  const DAYS_OLD = [400, 200, 100, 50, 10, 1];

  /** A repository with tags a..f, created DAYS_OLD days ago (a the oldest), and `latest`. */
  async function repository(name: string): Promise<{ id: number; path: string }> {
    let id = 0;
    for (const [i, days] of DAYS_OLD.entries()) {
      const createdAt = new Date(Date.now() - days * DAY).toISOString();
      id = await h.pushTag(`${p.fullPath}/${name}`, 'abcdef'[i]!, undefined, createdAt);
    }
    await h.pushTag(`${p.fullPath}/${name}`, 'latest');
    return { id, path: `/projects/${p.id}/registry/repositories/${id}/tags` };
  }
  const names = async (repositoryId: number) =>
    (await h.models.tags.find({ repositoryId }).sort({ name: 1 }).lean()).map((t) => t.name);
  const jobsFor = async (repositoryId: number) =>
    (await h.pendingJobs()).filter(
      (e) => e.type === 'cmd.registry.tags.cleanup' && e.data.repositoryId === repositoryId,
    );
  const leaseOf = async (repositoryId: number) =>
    (await h.models.repositories.findById(repositoryId).lean())?.cleanupLeaseUntil ?? null;

  it('When the OpenAPI document is built, then the bulk delete lists dry_run and its 200 answer', () => {
    const doc = buildOpenApiDocument(ENDPOINTS, { title: 't', version: '1' }) as {
      paths: Record<
        string,
        Record<string, { parameters: { name: string }[]; responses: Record<string, unknown> }>
      >;
    };
    const op = doc.paths['/api/v4/projects/{id}/registry/repositories/{repository_id}/tags']!.delete!;
    expect(op.parameters.map((x) => x.name)).toContain('dry_run');
    expect(op.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { properties: { count: { type: 'integer' } } } } },
    });
    expect(op.responses['202']).toBeDefined();
  });

  it('When dry_run=true, then 200 with the tags the run would delete, oldest first, and nothing changes', async () => {
    const { id, path } = await repository('plain');
    const reply = await h.call('DELETE', `${path}?dry_run=true&name_regex_delete=.*&keep_n=2`, {
      ns: p.ns,
      as: MAINTAINER,
    });
    expect(reply.status).toBe(200);
    expect(bulkDeleteDryRunEntity.parse(reply.body)).toEqual({
      dry_run: true,
      count: 4,
      tags: ['a', 'b', 'c', 'd'],
      truncated: false,
    });
    expect(await names(id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'latest']);
    expect(await jobsFor(id)).toEqual([]);
    expect(await leaseOf(id)).toBeNull();
  });

  it('When dry_run comes as form data or JSON with older_than and a keep expression, then the same plan', async () => {
    const { path } = await repository('bodies');
    const rules = { name_regex_delete: '[a-e]', name_regex_keep: 'b', older_than: '60d' };
    const form = await h.call('DELETE', path, {
      ns: p.ns,
      as: MAINTAINER,
      form: { ...rules, dry_run: 'true' },
    });
    const json = await h.call('DELETE', path, {
      ns: p.ns,
      as: MAINTAINER,
      json: { ...rules, dry_run: true },
    });
    const expected = { dry_run: true, count: 2, tags: ['a', 'c'], truncated: false };
    expect(form).toMatchObject({ status: 200, body: expected });
    expect(json).toMatchObject({ status: 200, body: expected });
  });

  it('When dry_run=false, then it is the real call (202 and a job)', async () => {
    const { id, path } = await repository('false');
    const reply = await h.call('DELETE', `${path}?dry_run=false&name_regex_delete=a`, {
      ns: p.ns,
      as: MAINTAINER,
    });
    expect(reply).toMatchObject({ status: 202, body: 202 });
    expect(await jobsFor(id)).toHaveLength(1);
  });

  it('When the hourly bulk delete was just used, then dry runs still answer and do not use it up', async () => {
    const { id, path } = await repository('limit');
    for (let i = 0; i < 3; i++) {
      const dry = await h.call('DELETE', `${path}?dry_run=true&name_regex=.*`, { ns: p.ns, as: MAINTAINER });
      expect(dry.status).toBe(200);
    }
    expect((await h.call('DELETE', `${path}?name_regex=.*`, { ns: p.ns, as: MAINTAINER })).status).toBe(202);
    const lease = await leaseOf(id);
    const dry = await h.call('DELETE', `${path}?dry_run=true&name_regex=.*`, { ns: p.ns, as: MAINTAINER });
    expect(dry).toMatchObject({ status: 200, body: { count: 6 } });
    expect(await leaseOf(id)).toEqual(lease);
    expect((await h.call('DELETE', `${path}?name_regex=.*`, { ns: p.ns, as: MAINTAINER })).body).toEqual({
      message: CLEANUP_RATE_LIMITED,
    });
    expect(await jobsFor(id)).toHaveLength(1);
  });

  it('When neither expression is given, then the real call’s 400', async () => {
    const { path } = await repository('missing');
    expect((await h.call('DELETE', `${path}?dry_run=true`, { ns: p.ns, as: MAINTAINER })).body).toEqual({
      error: 'name_regex, name_regex_delete are missing, at least one parameter must be provided',
    });
  });

  it('When an expression is not valid RE2 or keep_n is not a number, then the real call’s 400', async () => {
    const { path } = await repository('invalid');
    const bad = await h.call('DELETE', `${path}?dry_run=true&name_regex_delete=*v10.`, {
      ns: p.ns,
      as: MAINTAINER,
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: 'name_regex_delete is an invalid regexp: no argument for repetition operator: *' },
    });
    const keep = await h.call('DELETE', path, {
      ns: p.ns,
      as: MAINTAINER,
      form: { dry_run: 'true', name_regex_delete: '.*', keep_n: 'three' },
    });
    expect(keep).toMatchObject({ status: 400, body: { error: 'keep_n is invalid' } });
    const flag = await h.call('DELETE', `${path}?dry_run=maybe&name_regex=.*`, { ns: p.ns, as: MAINTAINER });
    expect(flag).toMatchObject({ status: 400, body: { error: 'dry_run is invalid' } });
  });

  it.each([
    ['a developer', DEVELOPER],
    ['a reporter', REPORTER],
  ])('When %s asks, then 403 as for the real call', async (_who, as) => {
    const { path } = await repository(`forbidden-${as.id}`);
    expect((await h.call('DELETE', `${path}?dry_run=true&name_regex=.*`, { ns: p.ns, as })).body).toEqual({
      message: '403 Forbidden',
    });
  });

  it('When nobody is signed in, then 401', async () => {
    const { path } = await repository('anonymous');
    expect(
      (await h.call('DELETE', `${path}?dry_run=true&name_regex=.*`, { ns: p.ns, as: null })).status,
    ).toBe(401);
  });

  it('When the repository is unknown or another project’s, then 404', async () => {
    const unknown = `/projects/${p.id}/registry/repositories/424242/tags?dry_run=true&name_regex=.*`;
    expect((await h.call('DELETE', unknown, { ns: p.ns, as: MAINTAINER })).body).toEqual({
      message: '404 Not found',
    });
    const { path } = await repository('foreign');
    const other = await h.seedProject('dry-group/other');
    const foreign = path.replace(`/projects/${p.id}/`, `/projects/${other.id}/`);
    expect(
      (await h.call('DELETE', `${foreign}?dry_run=true&name_regex=.*`, { ns: other.ns, as: MAINTAINER }))
        .status,
    ).toBe(404);
  });

  describe('on 10,000 tags', () => {
    let id = 0;
    let path = '';
    /** Names the worker removed, in the order it passed them to the tags store. */
    const removed: string[] = [];
    let worker: ReturnType<typeof cleanupWorker>;

    beforeAll(async () => {
      id = await h.pushTag(`${p.fullPath}/ten-thousand`, 'latest');
      path = `/projects/${p.id}/registry/repositories/${id}/tags`;
      const now = Date.now();
      // Ages spread over 0–119 days, each at least an hour away from a whole day (so no tag crosses an
      // older_than boundary between the dry run and the real run); every 50th tag without a creation time.
      await h.models.tags.insertMany(
        Array.from({ length: 10_000 }, (_, i) => ({
          _id: `${id}:${pad(i)}`,
          repositoryId: id,
          name: pad(i),
          digest: null,
          revision: null,
          createdAt:
            i % 50 === 49 ? null : new Date(now - ((i * 7919) % 120) * DAY - HOUR - (i % 1000) * 1000),
          totalSize: 1,
          pushedAt: new Date(now),
        })),
      );
      const tags = h.stores.tags;
      const recording: RegistryStores = {
        ...h.stores,
        tags: {
          ...tags,
          remove: async (...args: Parameters<typeof tags.remove>) => {
            removed.push(...args[1]);
            return tags.remove(...args);
          },
        },
      };
      worker = cleanupWorker(
        { stores: recording, logger: createLogger('dry-run-test', 'silent'), client: null },
        createMetrics('registry-worker-dry-run'),
        { maxTagsPerRun: 0 },
      );
    }, 60_000);

    async function dryRun(query: string): Promise<BulkDeleteDryRunEntity> {
      const reply = await h.call('DELETE', `${path}?dry_run=true&${query}`, { ns: p.ns, as: MAINTAINER });
      expect(reply.status).toBe(200);
      return bulkDeleteDryRunEntity.parse(reply.body);
    }
    /** The real call through the API, then its job on the worker. */
    async function realRun(query: string): Promise<void> {
      await h.models.repositories.updateOne({ _id: id }, { $set: { cleanupLeaseUntil: null } });
      expect((await h.call('DELETE', `${path}?${query}`, { ns: p.ns, as: MAINTAINER })).status).toBe(202);
      const jobs = await jobsFor(id);
      const job = jobs[jobs.length - 1]!;
      tagsCleanupRequestedData.parse(job.data);
      removed.length = 0;
      await worker.handle(job);
    }

    // keep_n decides here (the 6,500 newest candidates are younger than 100 days anyway).
    const FEW = new URLSearchParams({
      name_regex_delete: 't\\d{4}[0-8]',
      name_regex: 'ignored-when-name_regex_delete-is-given',
      name_regex_keep: 't\\d{3}[05]\\d',
      keep_n: '6500',
      older_than: '100d',
    }).toString();
    // older_than decides here, and more than 1,000 tags go.
    const MANY = new URLSearchParams({
      name_regex_delete: 't\\d{4}[0-8]',
      name_regex_keep: 't\\d{3}[05]\\d',
      keep_n: '1000',
      older_than: '60d',
    }).toString();

    it('When the real run starts right after the dry run, then it deletes exactly the listed tags, in that order', async () => {
      const before = await names(id);
      const plan = await dryRun(FEW);
      expect(plan.truncated).toBe(false);
      expect(plan.count).toBe(plan.tags.length);
      expect(plan.count).toBeGreaterThan(500);
      expect(await names(id)).toEqual(before);

      await realRun(FEW);
      expect(removed).toEqual(plan.tags);
      const gone = new Set(plan.tags);
      expect(await names(id)).toEqual(before.filter((n) => !gone.has(n)));
      expect(worker.lastCounts()).toMatchObject({ deleted: plan.count, failed: 0 });
    }, 60_000);

    it('When more than 1,000 tags would go, then the first 1,000 in deletion order, the full count and truncated', async () => {
      const before = await names(id);
      const plan = await dryRun(MANY);
      expect(plan.truncated).toBe(true);
      expect(plan.tags).toHaveLength(BULK_DELETE_DRY_RUN_NAMES);
      expect(plan.count).toBeGreaterThan(BULK_DELETE_DRY_RUN_NAMES);

      await realRun(MANY);
      expect(removed).toHaveLength(plan.count);
      expect(removed.slice(0, BULK_DELETE_DRY_RUN_NAMES)).toEqual(plan.tags);
      expect(await names(id)).toHaveLength(before.length - plan.count);
      // Nothing matches any more: the dry run now lists nothing.
      expect(await dryRun(MANY)).toEqual({ dry_run: true, count: 0, tags: [], truncated: false });
    }, 60_000);
  });
});
