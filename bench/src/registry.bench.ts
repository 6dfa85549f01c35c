import mongoose from 'mongoose';
import { callGateway } from './gateway-api';
import type { Scenario } from './scenario';
import { percentile } from './stats';

/**
 * `npm run bench -- --scenario registry [--tags N]`: one repository with N tags (default 100,000), seeded
 * straight into the registry service's database, then (1) listed page by page through the gateway
 * (per_page=100) and (2) bulk-deleted (keep_n=10) through the gateway, timed from the 202 until the worker
 * process has removed everything it should.
 */
export interface RegistryBenchOptions {
  gatewayUrl: string;
  rootToken: string;
  mongoUrl: string;
  /** The registry service's database (`<prefix>registry`). */
  database: string;
  tags: number;
  log: (line: string) => void;
}

export interface RegistryBenchResult {
  tags: number;
  seedSeconds: number;
  listing: { pages: number; seconds: number; pagesPerSecond: number; p50Ms: number; p99Ms: number };
  bulkDelete: { deleted: number; secondsFrom202ToDone: number; tagsPerSecond: number };
}

const KEEP = 10;

const call = (options: RegistryBenchOptions, method: string, path: string, body?: Record<string, unknown>) =>
  callGateway(options.gatewayUrl, options.rootToken, method, path, body);

/**
 * One repository of `projectId` with `tags` tags, written straight into the registry service's database
 * (pushing 100,000 manifests through the registry protocol would take hours); returns the repository id.
 */
export async function seedTags(
  connection: mongoose.Connection,
  projectId: number,
  path: string,
  tags: number,
): Promise<number> {
  const counter = await connection
    .collection<{ _id: string; value: number }>('counters')
    .findOneAndUpdate(
      { _id: 'registry_repositories' },
      { $inc: { value: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
  const repositoryId = counter!.value;
  const now = Date.now();
  await connection.collection('repositories').insertOne({
    _id: repositoryId as never,
    projectId,
    name: 'bench',
    path,
    createdAt: new Date(now),
    status: null,
    cleanupPolicyStartedAt: null,
    cleanupLeaseUntil: null,
  });
  const BATCH = 5_000;
  for (let start = 0; start < tags; start += BATCH) {
    const docs = [];
    for (let i = start; i < Math.min(tags, start + BATCH); i++) {
      const name = `tag-${String(i).padStart(6, '0')}`;
      docs.push({
        _id: `${repositoryId}:${name}` as never,
        repositoryId,
        name,
        digest: `sha256:${i.toString(16).padStart(64, '0')}`,
        revision: null,
        createdAt: new Date(now - i * 60_000),
        totalSize: 1_000,
        pushedAt: new Date(now),
      });
    }
    await connection.collection('tags').insertMany(docs, { ordered: false });
  }
  return repositoryId;
}

export async function runRegistryBench(options: RegistryBenchOptions): Promise<RegistryBenchResult> {
  const { log } = options;
  const suffix = Date.now().toString(36);
  const group = await call(options, 'POST', '/groups', { name: `reg-${suffix}`, path: `reg-${suffix}` });
  if (group.status !== 201) throw new Error(`group create answered ${group.status}`);
  const groupId = (group.json as { id: number }).id;
  const project = await call(options, 'POST', '/projects', { name: 'images', namespace_id: groupId });
  if (project.status !== 201) throw new Error(`project create answered ${project.status}`);
  const projectId = (project.json as { id: number }).id;

  const connection = await mongoose
    .createConnection(options.mongoUrl, { dbName: options.database })
    .asPromise();
  try {
    const seedStart = Date.now();
    const repositoryId = await seedTags(connection, projectId, `reg-${suffix}/images/bench`, options.tags);
    const seedSeconds = (Date.now() - seedStart) / 1_000;
    log(`registry: seeded ${options.tags} tags in ${seedSeconds.toFixed(1)} s`);

    const base = `/projects/${projectId}/registry/repositories/${repositoryId}`;
    const latencies: number[] = [];
    const listStart = Date.now();
    let seen = 0;
    for (let page = 1; ; page++) {
      const t0 = performance.now();
      const reply = await call(options, 'GET', `${base}/tags?per_page=100&page=${page}`);
      latencies.push(performance.now() - t0);
      if (reply.status !== 200) throw new Error(`tags page ${page} answered ${reply.status}`);
      const count = (reply.json as unknown[]).length;
      seen += count;
      if (count < 100) break;
    }
    const listSeconds = (Date.now() - listStart) / 1_000;
    if (seen !== options.tags) throw new Error(`listing saw ${seen} of ${options.tags} tags`);
    latencies.sort((a, b) => a - b);
    const listing = {
      pages: latencies.length,
      seconds: listSeconds,
      pagesPerSecond: latencies.length / listSeconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
    };
    log(`registry: listed ${seen} tags in ${listing.pages} pages, ${listSeconds.toFixed(1)} s`);

    const deleteStart = Date.now();
    const accepted = await call(options, 'DELETE', `${base}/tags`, { name_regex_delete: '.*', keep_n: KEEP });
    if (accepted.status !== 202) throw new Error(`bulk delete answered ${accepted.status}`);
    const expected = Math.min(KEEP, options.tags);
    // The worker records each job as done (a one-document collection here); counting the tags instead
    // would scan them every poll and slow the delete it measures.
    for (;;) {
      if (await connection.collection('cleanup_jobs').findOne({ state: 'done' })) break;
      if (Date.now() - deleteStart > 30 * 60_000)
        throw new Error('bulk delete still running after 30 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
    const secondsFrom202ToDone = (Date.now() - deleteStart) / 1_000;
    const left = await connection.collection('tags').countDocuments({ repositoryId });
    if (left !== expected) throw new Error(`bulk delete left ${left} tags, expected ${expected}`);
    const deleted = options.tags - expected;
    log(`registry: bulk delete of ${deleted} tags done in ${secondsFrom202ToDone.toFixed(1)} s`);
    return {
      tags: options.tags,
      seedSeconds,
      listing,
      bulkDelete: { deleted, secondsFrom202ToDone, tagsPerSecond: deleted / secondsFrom202ToDone },
    };
  } finally {
    await connection.close();
  }
}

export function registryScenario(tags: number): Scenario<RegistryBenchResult> {
  return {
    name: 'registry',
    inDefaultRun: true,
    async run(context) {
      const result = await runRegistryBench({
        gatewayUrl: context.stack.gatewayUrl,
        rootToken: context.stack.rootToken,
        mongoUrl: context.mongoUrl,
        database: `${context.databasePrefix}registry`,
        tags,
        log: context.log,
      });
      return {
        result,
        rows: [
          {
            path: `bulk delete of ${tags.toLocaleString('en-US')} tags`,
            measure: '202 → job done',
            value: result.bulkDelete.secondsFrom202ToDone,
            unit: 's',
            goal: 'max',
            target: 20,
            before: '80 (100,000 tags)',
          },
        ],
      };
    },
  };
}
