import mongoose from 'mongoose';
import { seedActivityLog } from '../events.bench';
import { seedTags } from '../registry.bench';
import { roundTenth } from '../stats';
import { waitFor } from './clone';
import { makeApiFixture, type ApiFixture } from './fixture-api';
import { loadIssues } from './issue-loader';
import { loadUsers, type LoadedUsers } from './user-loader';
import type { ScaleBenchOptions } from '../scale.bench';

/**
 * The mixed scenario's fixture at the size the capacity issue names (× `scale`): 10,000 users with
 * tokens, all members of one private group with 100 projects, 100,000 issues with 300,000 comments,
 * 1,000,000 activity events and 100,000 registry tags. The small part is made through the API
 * (fixture-api.ts); the large part is written by bulk loaders straight into each service's database in the
 * shapes the service writes: copies of template users and issues, the events service's own seed CLI and
 * the registry scenario's tag seed. Each step is timed; the whole budget is 10 minutes at full size.
 */
export const FULL_FIXTURE = {
  users: 10_000,
  projects: 100,
  issues: 100_000,
  events: 1_000_000,
  tags: 100_000,
};
/** Users who wrote the seeded activity (a GitLab instance's active writers are a small share of users). */
const EVENT_AUTHORS = 100;
const PROJECTION_WAIT_MS = 120_000;

export interface MixedFixture extends ApiFixture {
  users: LoadedUsers;
  /** Per project: the issue iids the mix reads (copies and API-made), first and count. */
  iids: Map<number, { first: number; count: number }>;
  /** Per project: its tag repository. */
  repositories: Map<number, number>;
  eventAuthors: number[];
  counts: { users: number; projects: number; issues: number; comments: number; events: number; tags: number };
  /** Seconds per step and in all. */
  seconds: Record<string, number>;
}

/** Until discussions, events and registry know every project (their identity copies come by events). */
async function projectCopies(options: FixtureOptions, ids: number[]): Promise<boolean> {
  for (const service of ['discussions', 'events', 'registry']) {
    const connection = await mongoose
      .createConnection(options.mongoUrl, { dbName: `${options.databasePrefix}${service}` })
      .asPromise();
    try {
      const ready = await waitFor(
        async () =>
          (await connection.collection('projects').countDocuments({ _id: { $in: ids as never[] } })) ===
          ids.length,
        PROJECTION_WAIT_MS,
      );
      if (!ready) return false;
    } finally {
      await connection.close();
    }
  }
  return true;
}

/** One repository per project, the tags shared out evenly, by the registry scenario's seed. */
async function loadTags(
  options: FixtureOptions,
  api: ApiFixture,
  tags: number,
): Promise<Map<number, number>> {
  const connection = await mongoose
    .createConnection(options.mongoUrl, { dbName: `${options.databasePrefix}registry` })
    .asPromise();
  const made = new Map<number, number>();
  try {
    for (const [i, project] of api.projects.entries()) {
      const share = Math.floor(tags / api.projects.length) + (i < tags % api.projects.length ? 1 : 0);
      const path = `${api.groupPath}/${project.path}/bench`;
      made.set(project.id, await seedTags(connection, project.id, path, Math.max(1, share)));
    }
  } finally {
    await connection.close();
  }
  return made;
}

/** The scale scenario's settings (the stack, its database, the size): the mixed fixture is built from the same. */
export type FixtureOptions = ScaleBenchOptions;

export async function buildFixture(options: FixtureOptions): Promise<MixedFixture> {
  const { log } = options;
  const sized = (n: number, min = 1): number => Math.max(min, Math.round(n * options.scale));
  const counts = {
    users: sized(FULL_FIXTURE.users),
    projects: sized(FULL_FIXTURE.projects, 2),
    issues: sized(FULL_FIXTURE.issues, 10),
    events: sized(FULL_FIXTURE.events),
    tags: sized(FULL_FIXTURE.tags),
    comments: 0,
  };
  log(`mixed: building the fixture ${JSON.stringify(counts)}`);
  const seconds: Record<string, number> = {};
  const started = performance.now();
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await work();
    seconds[name] = roundTenth((performance.now() - t0) / 1_000);
    log(
      `mixed: ${name} done in ${seconds[name]} s (${roundTenth((performance.now() - started) / 1_000)} s so far)`,
    );
    return result;
  };
  const suffix = Date.now().toString(36);
  const api = await step('through the API', () =>
    makeApiFixture({ ...options, projects: counts.projects, suffix }),
  );
  const projectIds = api.projects.map((p) => p.id);
  const copied = await step('project copies reach the services', () => projectCopies(options, projectIds));
  if (!copied) throw new Error('mixed: the projects did not reach discussions, events and registry in time');
  const common = { mongoUrl: options.mongoUrl, databasePrefix: options.databasePrefix, log };
  const users = await step('users with tokens', () =>
    loadUsers({ ...common, template: api.templateUser, count: counts.users, suffix }),
  );
  const eventAuthors = users.ids.slice(0, EVENT_AUTHORS);
  // Three databases, three database files: the loaders run side by side.
  const [issues, , repositories] = await Promise.all([
    step('issues and comments', () =>
      loadIssues({
        ...common,
        templateIds: api.templateIssueIds,
        projects: projectIds,
        issues: counts.issues,
      }),
    ),
    step('activity events', () =>
      seedActivityLog({
        mongoUrl: options.mongoUrl,
        database: `${options.databasePrefix}events`,
        events: counts.events,
        realProject: projectIds[0]!,
        spread: { projects: projectIds, authors: eventAuthors },
        log,
      }),
    ),
    step('registry tags', () => loadTags(options, api, counts.tags)),
  ]);
  counts.comments = issues.notes;
  seconds.total = roundTenth((performance.now() - started) / 1_000);
  log(`mixed: fixture built in ${seconds.total} s`);
  return { ...api, users, iids: issues.iids, repositories, eventAuthors, counts, seconds };
}
