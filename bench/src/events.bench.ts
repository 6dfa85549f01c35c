import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import mongoose from 'mongoose';
import { DOMAIN_EVENT_TYPES, rootEvent, type EventEnvelope } from '@gl/contracts';
import { connectBus, createLogger } from '@gl/service-kit';
import type { CpuSampler } from './cpu';
import {
  listTargets,
  listingMarkdown,
  measureLists,
  type ListMeasure,
  type ListingContext,
} from './events-listing';
import type { Scenario } from './scenario';
import { percentile } from './stats';

/**
 * `npm run bench -- --scenario events [--events N] [--ingest K]`, in this order so ingestion and listing are
 * measured on a full store:
 * (1) store: N activity events (default 1,000,000) written by the events service's bulk loader over 1,000
 *     projects (a tenth in one real project);
 * (2) ingestion: K issue.opened events (default 20,000) published on the bus as fast as one client can,
 *     timed until all are visible through GET /projects/:id/events (events/s from publish to visible, and
 *     the CPU the events service and FerretDB spent per event);
 * (3) end-to-end lag: single events published one after another, each timed until the API shows it;
 * (4) listing (events-listing.ts): the project, user and scope=all lists through the gateway, first and deep
 *     pages, each filter (action, target_type, before, after), as root and as a Developer of the group:
 *     p50/p99 of sequential requests and CPU per request of the events service, FerretDB and the gateway.
 */
export interface EventsBenchOptions {
  gatewayUrl: string;
  rootToken: string;
  mongoUrl: string;
  natsUrl: string;
  /** The events service's database (`<prefix>events`). */
  database: string;
  /** Activity events stored before anything is measured. */
  events: number;
  /** Events published and timed in the ingestion phase. */
  ingest: number;
  cpu: CpuSampler;
  log: (line: string) => void;
}

export interface EventsBenchResult {
  ingestion: {
    events: number;
    seconds: number;
    eventsPerSecond: number;
    /** CPU milliseconds per ingested event, from the first publish until all are visible. */
    cpuMsPerEvent: { events: number; ferretdb: number };
  };
  lag: { samples: number; p50Ms: number; p99Ms: number };
  listing: {
    storedEvents: number;
    projects: number;
    seedSeconds: number;
    targets: Record<string, ListMeasure>;
  };
}

const PUBLISH_WINDOW = 500;
const LAG_SAMPLES = 50;
const DEVELOPER = 30;
const PROJECTS = 1_000;
const FAKE_PROJECT_BASE = 5_000_000;
const SEEDED_ID_BASE = 50_000_000;

async function get(
  options: EventsBenchOptions,
  path: string,
): Promise<{ status: number; total: number; count: number }> {
  const response = await fetch(`${options.gatewayUrl}/api/v4${path}`, {
    headers: { 'PRIVATE-TOKEN': options.rootToken },
    signal: AbortSignal.timeout(120_000),
  });
  const body = await response.json();
  return {
    status: response.status,
    total: Number(response.headers.get('x-total') ?? '0'),
    count: Array.isArray(body) ? body.length : 0,
  };
}

async function post(
  options: EventsBenchOptions,
  path: string,
  body: Record<string, unknown>,
): Promise<{ id: number; token?: string }> {
  const response = await fetch(`${options.gatewayUrl}/api/v4${path}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': options.rootToken, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await response.json()) as { id: number; token?: string };
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}`);
  return json;
}

/** A Developer of the group with a token: reads what a member reads (checked per event, unlike root). */
async function addMember(options: EventsBenchOptions, groupId: number, suffix: string): Promise<string> {
  const username = `evmember-${suffix}`;
  const user = await post(options, '/users', {
    username,
    name: `Events member ${suffix}`,
    email: `${username}@example.com`,
    force_random_password: true,
  });
  const token = await post(options, `/users/${user.id}/personal_access_tokens`, {
    name: 'events-bench',
    scopes: ['api'],
  });
  await post(options, `/groups/${groupId}/members`, { user_id: user.id, access_level: DEVELOPER });
  return token.token!;
}

function issueOpened(projectId: number, iid: number): EventEnvelope {
  return rootEvent({
    id: randomUUID(),
    type: DOMAIN_EVENT_TYPES.discussions.issueOpened,
    producer: 'bench',
    projectId,
    data: { targetId: iid, targetIid: iid, targetTitle: `Bench issue ${iid}` },
  });
}

async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  pollMs = 5,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export interface ActivitySeed {
  mongoUrl: string;
  /** The events service's database (`<prefix>events`). */
  database: string;
  events: number;
  /** A project made through the API: every tenth event is its own, so it has deep pages. */
  realProject: number;
  /**
   * Instead of the real project and synthetic ones: these projects made through the API, written by these
   * users, round-robin (the mixed scenario, whose readers are members of them all).
   */
  spread?: { projects: number[]; authors: number[] };
  log: (line: string) => void;
}

/** Synthetic projects root is a member of, so /events?scope=all covers them all. */
async function addSyntheticProjects(seed: ActivitySeed, fakeIds: number[]): Promise<void> {
  const connection = await mongoose.createConnection(seed.mongoUrl, { dbName: seed.database }).asPromise();
  try {
    await connection.collection('projects').insertMany(
      fakeIds.map((id) => ({
        _id: id as never,
        fullPath: `bench/p${id}`,
        visibility: 'private',
        ancestorGroupIds: [],
        destroyed: false,
        createdCorrelationId: null,
      })),
      { ordered: false },
    );
    await connection.collection('members').insertMany(
      fakeIds.map((id) => ({
        _id: `project:${id}:1` as never,
        sourceType: 'project',
        sourceId: id,
        userId: 1,
        accessLevel: 50,
        expiresAt: null,
      })),
      { ordered: false },
    );
  } finally {
    await connection.close();
  }
}

/**
 * Seeds `events` activity events over PROJECTS projects (the real one and PROJECTS - 1 synthetic ones), or
 * over `spread`, with the events service's own bulk loader (dist/apps/events/bench-seed.js), which writes
 * the activity log as its consumer would; its progress lines are passed on.
 */
export async function seedActivityLog(seed: ActivitySeed): Promise<void> {
  const where = seed.spread
    ? ['--real-projects', seed.spread.projects.join(','), '--authors', seed.spread.authors.join(',')]
    : [
        ...['--real-project', String(seed.realProject), '--fake-project-base', String(FAKE_PROJECT_BASE)],
        ...['--projects', String(PROJECTS), '--author', '1'],
      ];
  if (!seed.spread) {
    await addSyntheticProjects(
      seed,
      Array.from({ length: PROJECTS - 1 }, (_, i) => FAKE_PROJECT_BASE + i),
    );
  }
  const args = [
    resolve(__dirname, '..', 'apps', 'events', 'bench-seed.js'),
    ...['--events', String(seed.events), ...where, '--id-base', String(SEEDED_ID_BASE)],
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, MONGO_URL: seed.mongoUrl, MONGO_DB: seed.database },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (const line of chunk.trim().split('\n')) seed.log(`events: seed ${line}`);
  });
  const code = await new Promise<number | null>((done) => child.once('close', done));
  if (code !== 0) throw new Error(`the events bench seed exited with ${String(code)}`);
}

export async function runEventsBench(options: EventsBenchOptions): Promise<EventsBenchResult> {
  const { log } = options;
  const suffix = Date.now().toString(36);
  const groupId = (await post(options, '/groups', { name: `ev-${suffix}`, path: `ev-${suffix}` })).id;
  const ingestProject = (await post(options, '/projects', { name: 'ingest', namespace_id: groupId })).id;
  const listProject = (await post(options, '/projects', { name: 'list', namespace_id: groupId })).id;
  const memberToken = await addMember(options, groupId, suffix);
  const visible = async (projectId: number) =>
    (await get(options, `/projects/${projectId}/events?per_page=1`)).total;
  // Past 10,000 events a list has no X-Total (GitLab's count limit): the n-th event is visible when the page
  // of one event at position n holds one.
  const visibleAtLeast = async (projectId: number, n: number) =>
    (await get(options, `/projects/${projectId}/events?per_page=1&page=${n}`)).count === 1;
  // Project creation itself records a "created" event in each project.
  await until(
    async () => (await visible(listProject)) >= 1 && (await visible(ingestProject)) >= 1,
    30_000,
    'the projects to reach the events service',
  );

  const seedStart = Date.now();
  await seedActivityLog({ ...options, realProject: listProject });
  const seedSeconds = (Date.now() - seedStart) / 1_000;
  log(`events: seeded ${options.events} events over ${PROJECTS} projects in ${seedSeconds.toFixed(1)} s`);

  const baseline = await visible(ingestProject);
  const bus = await connectBus(options.natsUrl, 'events-bench', createLogger('events-bench', 'warn'));
  let ingestion: EventsBenchResult['ingestion'];
  let lag: EventsBenchResult['lag'];
  try {
    const cpuBefore = options.cpu.snapshot();
    const t0 = performance.now();
    for (let start = 0; start < options.ingest; start += PUBLISH_WINDOW) {
      await Promise.all(
        Array.from({ length: Math.min(PUBLISH_WINDOW, options.ingest - start) }, (_, i) =>
          bus.publish(issueOpened(ingestProject, start + i + 1)),
        ),
      );
      if ((start / PUBLISH_WINDOW) % 10 === 9) log(`events: published ${start + PUBLISH_WINDOW}`);
    }
    const published = (performance.now() - t0) / 1_000;
    log(`events: published ${options.ingest} events in ${published.toFixed(2)} s; waiting until visible`);
    await until(
      async () => visibleAtLeast(ingestProject, baseline + options.ingest),
      600_000,
      'ingestion',
      100,
    );
    const seconds = (performance.now() - t0) / 1_000;
    const cpuAfter = options.cpu.snapshot();
    const perEvent = (name: string) =>
      Math.round((((cpuAfter.ms[name] ?? 0) - (cpuBefore.ms[name] ?? 0)) / options.ingest) * 1_000) / 1_000;
    ingestion = {
      events: options.ingest,
      seconds,
      eventsPerSecond: options.ingest / seconds,
      cpuMsPerEvent: { events: perEvent('events'), ferretdb: perEvent('ferretdb') },
    };
    log(
      `events: ingested ${options.ingest} events in ${seconds.toFixed(2)} s (CPU per event: events ` +
        `${ingestion.cpuMsPerEvent.events} ms, ferretdb ${ingestion.cpuMsPerEvent.ferretdb} ms)`,
    );

    const lags: number[] = [];
    let expected = baseline + options.ingest;
    for (let i = 0; i < LAG_SAMPLES; i++) {
      const start = performance.now();
      await bus.publish(issueOpened(ingestProject, options.ingest + i + 1));
      expected += 1;
      await until(() => visibleAtLeast(ingestProject, expected), 30_000, 'one event');
      lags.push(performance.now() - start);
    }
    lags.sort((a, b) => a - b);
    lag = { samples: lags.length, p50Ms: percentile(lags, 50), p99Ms: percentile(lags, 99) };
    log(`events: lag p50 ${lag.p50Ms.toFixed(1)} ms, p99 ${lag.p99Ms.toFixed(1)} ms`);
  } finally {
    await bus.close();
  }

  const listing: ListingContext = {
    gatewayUrl: options.gatewayUrl,
    tokens: { root: options.rootToken, member: memberToken },
    cpu: options.cpu,
    log,
  };
  const targets = await measureLists(listing, listTargets(listProject, options.events));
  return {
    ingestion,
    lag,
    listing: { storedEvents: options.events, projects: PROJECTS, seedSeconds, targets },
  };
}

const FILTERED_LIST = 'project target_type=issue';

export interface EventsScenarioOptions {
  events: number;
  ingest: number;
}

export function eventsScenario(sizes: EventsScenarioOptions): Scenario<EventsBenchResult> {
  return {
    name: 'events',
    inDefaultRun: true,
    async run(context) {
      const result = await runEventsBench({
        gatewayUrl: context.stack.gatewayUrl,
        rootToken: context.stack.rootToken,
        mongoUrl: context.mongoUrl,
        natsUrl: context.natsUrl,
        database: `${context.databasePrefix}events`,
        ...sizes,
        cpu: context.cpu,
        log: context.log,
      });
      const stored = `${sizes.events.toLocaleString('en-US')} stored`;
      return {
        result,
        rows: [
          {
            path: `activity ingestion, ${sizes.ingest.toLocaleString('en-US')} events, ${stored}`,
            measure: 'publish → visible',
            value: result.ingestion.eventsPerSecond,
            unit: 'events/s',
            goal: 'min',
            target: 1_500,
            before: '68',
          },
          {
            path: 'activity lag, one event',
            measure: 'p99 publish → visible',
            value: result.lag.p99Ms,
            unit: 'ms',
            goal: 'max',
            target: 250,
          },
          {
            path: `filtered activity list (target_type=issue, page 1), ${stored}`,
            measure: 'p99',
            value: result.listing.targets[FILTERED_LIST]?.p99Ms ?? Number.NaN,
            unit: 'ms',
            goal: 'max',
            target: 100,
            before: '≈500 at 1,000,000',
          },
        ],
        details: `Lists at ${stored} (events-listing.ts):\n\n${listingMarkdown(result.listing.targets)}`,
      };
    },
  };
}
