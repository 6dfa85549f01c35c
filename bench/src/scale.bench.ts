import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { seedActivityLog } from './events.bench';
import { callGateway, type GatewayReply } from './gateway-api';
import { seedTags } from './registry.bench';
import type { Scenario } from './scenario';
import { percentile, roundTenth } from './stats';

/**
 * `npm run bench -- --scenario scale [--scale F]`: the stack filled to a small installation's size, then
 * every common request kind timed through the gateway. At --scale 1: 10,000 users with a personal access
 * token each and 100,000 issues in one project, both made through the API with 16 clients; 1,000,000
 * activity events written by the events service's bulk loader (a tenth in the issues' project); 100,000
 * tags seeded into the registry's database. --scale 0.1 fills a tenth of each.
 *
 * Then, one request at a time (p50/p99): an unknown token, a known token, one issue, 50 notes, the issue
 * list (first and a deep page), the filtered activity list, a tag page, creating an issue; and issues
 * created per second by 16 clients. Each kind has the target its issue set; the report says which are met.
 */
export interface ScaleBenchOptions {
  gatewayUrl: string;
  rootToken: string;
  mongoUrl: string;
  databasePrefix: string;
  scale: number;
  connections: number;
  log: (line: string) => void;
}

interface Latency {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** The p99 the issue asks for, when it names one. */
  targetP99Ms?: number;
  met?: boolean;
}

interface Fill {
  count: number;
  seconds: number;
  perSecond: number;
}

export interface ScaleBenchResult {
  scale: number;
  filled: { users: Fill; issues: Fill; activityEvents: Fill; tags: Fill };
  /** From the last issue created until the activity log lists all of them. */
  activityCatchUpSeconds: number;
  latencies: Record<string, Latency>;
  createThroughput: {
    clients: number;
    seconds: number;
    issuesPerSecond: number;
    target: number;
    met: boolean;
  };
}

const FULL = { users: 10_000, issues: 100_000, events: 1_000_000, tags: 100_000 };
const SAMPLES = 200;
const NOTES = 50;
const THROUGHPUT_SECONDS = 10;
const TARGETS_P99_MS: Record<string, number> = {
  'unknown token (401)': 10,
  'GET one issue': 20,
  'GET 50 notes': 30,
  'GET issue list page 1': 50,
  'POST an issue': 50,
  'GET filtered activity list': 50,
};
const CREATE_TARGET_PER_SECOND = 300;

type Reply = GatewayReply;

const call = (
  options: ScaleBenchOptions,
  method: string,
  path: string,
  body?: Record<string, unknown>,
  token = options.rootToken,
): Promise<Reply> => callGateway(options.gatewayUrl, token, method, path, body);

async function expectStatus(reply: Promise<Reply>, status: number, what: string): Promise<Reply> {
  const r = await reply;
  if (r.status !== status)
    throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
  return r;
}

/** Runs task(0..count-1) with `clients` at a time, logging progress every 10 s. */
export async function fill(
  options: Pick<ScaleBenchOptions, 'log' | 'connections'>,
  what: string,
  count: number,
  task: (i: number) => Promise<void>,
): Promise<Fill> {
  let next = 0;
  let done = 0;
  const started = performance.now();
  const progress = setInterval(() => {
    const seconds = (performance.now() - started) / 1_000;
    options.log(`scale: ${what} ${done}/${count} (${Math.round(done / seconds)}/s)`);
  }, 10_000);
  try {
    const client = async (): Promise<void> => {
      while (next < count) {
        const i = next++;
        await task(i);
        done++;
      }
    };
    await Promise.all(Array.from({ length: options.connections }, client));
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - started) / 1_000;
  options.log(`scale: ${what}: ${count} in ${seconds.toFixed(1)} s`);
  return { count, seconds: roundTenth(seconds), perSecond: roundTenth(count / seconds) };
}

async function timeSequential(
  label: string,
  request: (i: number) => Promise<Reply>,
  status: number,
): Promise<Latency> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    const reply = await request(i);
    samples.push(performance.now() - t0);
    if (reply.status !== status) throw new Error(`${label} answered ${reply.status}, expected ${status}`);
  }
  samples.sort((a, b) => a - b);
  const latency: Latency = {
    requests: samples.length,
    p50Ms: roundTenth(percentile(samples, 50)),
    p99Ms: roundTenth(percentile(samples, 99)),
  };
  const target = TARGETS_P99_MS[label];
  return target === undefined ? latency : { ...latency, targetP99Ms: target, met: latency.p99Ms < target };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return false;
}

export async function runScaleBench(options: ScaleBenchOptions): Promise<ScaleBenchResult> {
  const { log } = options;
  const sized = (n: number): number => Math.max(1, Math.round(n * options.scale));
  const counts = {
    users: sized(FULL.users),
    issues: sized(FULL.issues),
    events: sized(FULL.events),
    tags: sized(FULL.tags),
  };
  log(`scale: filling to ${JSON.stringify(counts)} with ${options.connections} clients`);
  const suffix = Date.now().toString(36);
  const group = await expectStatus(
    call(options, 'POST', '/groups', { name: `scale-${suffix}`, path: `scale-${suffix}` }),
    201,
    'POST /groups',
  );
  const groupId = (group.json as { id: number }).id;
  const project = await expectStatus(
    call(options, 'POST', '/projects', { name: 'big', namespace_id: groupId }),
    201,
    'POST /projects',
  );
  const projectId = (project.json as { id: number }).id;
  const issuesPath = `/projects/${projectId}/issues`;

  const tokens: string[] = [];
  const users = await fill(options, 'users with tokens', counts.users, async (i) => {
    const user = await expectStatus(
      call(options, 'POST', '/users', {
        username: `scale-${suffix}-${i}`,
        name: `Scale User ${i}`,
        email: `scale-${suffix}-${i}@example.com`,
        force_random_password: true,
      }),
      201,
      'POST /users',
    );
    const id = (user.json as { id: number }).id;
    const token = await expectStatus(
      call(options, 'POST', `/users/${id}/personal_access_tokens`, { name: 'scale', scopes: ['api'] }),
      201,
      'POST /users/:id/personal_access_tokens',
    );
    tokens.push((token.json as { token: string }).token);
  });

  const issues = await fill(options, 'issues', counts.issues, async (i) => {
    await expectStatus(
      call(options, 'POST', issuesPath, { title: `Scale issue ${i}` }),
      201,
      `POST ${issuesPath}`,
    );
  });
  const filledAt = performance.now();
  for (let i = 0; i < NOTES; i++) {
    await expectStatus(
      call(options, 'POST', `${issuesPath}/1/notes`, { body: `Note ${i}` }),
      201,
      'POST note',
    );
  }

  // Every created issue becomes an activity event; the log should list them all soon after the last write.
  const openedVisible = async (): Promise<boolean> =>
    (await call(options, 'GET', `/projects/${projectId}/events?target_type=issue&per_page=1`)).total >=
    counts.issues;
  const caughtUp = await until(openedVisible, 30 * 60_000);
  const activityCatchUpSeconds = roundTenth((performance.now() - filledAt) / 1_000);
  log(
    `scale: activity log ${caughtUp ? 'caught up' : 'still behind'} ${activityCatchUpSeconds} s after the last issue`,
  );

  const eventsStart = performance.now();
  await seedActivityLog({
    mongoUrl: options.mongoUrl,
    database: `${options.databasePrefix}events`,
    events: counts.events,
    realProject: projectId,
    log,
  });
  const eventsSeconds = (performance.now() - eventsStart) / 1_000;
  const activityEvents = {
    count: counts.events,
    seconds: roundTenth(eventsSeconds),
    perSecond: roundTenth(counts.events / eventsSeconds),
  };

  const connection = await mongoose
    .createConnection(options.mongoUrl, { dbName: `${options.databasePrefix}registry` })
    .asPromise();
  let repositoryId: number;
  const tagsStart = performance.now();
  try {
    repositoryId = await seedTags(connection, projectId, `scale-${suffix}/big/bench`, counts.tags);
  } finally {
    await connection.close();
  }
  const tagsSeconds = (performance.now() - tagsStart) / 1_000;
  const tags = {
    count: counts.tags,
    seconds: roundTenth(tagsSeconds),
    perSecond: roundTenth(counts.tags / tagsSeconds),
  };
  log(`scale: ${counts.tags} tags in ${tagsSeconds.toFixed(1)} s`);

  const pick = (i: number, n: number): number => 1 + ((i * 7_919) % n);
  const deepPage = Math.max(1, Math.floor(counts.issues / 20 / 2));
  const kinds: [string, (i: number) => Promise<Reply>, number][] = [
    [
      'unknown token (401)',
      () => call(options, 'GET', issuesPath, undefined, `glpat-${randomBytes(10).toString('hex')}`),
      401,
    ],
    [
      'known token, GET /user',
      (i) => call(options, 'GET', '/user', undefined, tokens[i % tokens.length]),
      200,
    ],
    ['GET one issue', (i) => call(options, 'GET', `${issuesPath}/${pick(i, counts.issues)}`), 200],
    ['GET 50 notes', () => call(options, 'GET', `${issuesPath}/1/notes?per_page=50`), 200],
    ['GET issue list page 1', () => call(options, 'GET', issuesPath), 200],
    [`GET issue list page ${deepPage}`, () => call(options, 'GET', `${issuesPath}?page=${deepPage}`), 200],
    [
      'GET filtered activity list',
      () => call(options, 'GET', `/projects/${projectId}/events?target_type=issue&action=created`),
      200,
    ],
    [
      'GET tags page 1',
      () => call(options, 'GET', `/projects/${projectId}/registry/repositories/${repositoryId}/tags`),
      200,
    ],
    ['POST an issue', (i) => call(options, 'POST', issuesPath, { title: `Timed issue ${i}` }), 201],
  ];
  const latencies: Record<string, Latency> = {};
  for (const [label, request, status] of kinds) {
    latencies[label] = await timeSequential(label, request, status);
    const l = latencies[label];
    log(
      `scale: ${label}: p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms${l.met === undefined ? '' : l.met ? ' (target met)' : ` (target ${l.targetP99Ms} ms missed)`}`,
    );
  }

  let created = 0;
  const end = performance.now() + THROUGHPUT_SECONDS * 1_000;
  const started = performance.now();
  const creator = async (): Promise<void> => {
    while (performance.now() < end) {
      await expectStatus(
        call(options, 'POST', issuesPath, { title: `Throughput issue ${created}` }),
        201,
        'POST issue',
      );
      created++;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, creator));
  const seconds = (performance.now() - started) / 1_000;
  const issuesPerSecond = roundTenth(created / seconds);
  log(`scale: ${options.connections} clients created ${issuesPerSecond} issues/s`);

  return {
    scale: options.scale,
    filled: { users, issues, activityEvents, tags },
    activityCatchUpSeconds,
    latencies,
    createThroughput: {
      clients: options.connections,
      seconds: roundTenth(seconds),
      issuesPerSecond,
      target: CREATE_TARGET_PER_SECOND,
      met: issuesPerSecond >= CREATE_TARGET_PER_SECOND,
    },
  };
}

/** Not part of a plain run (it fills a small installation first); its rows are the p99s with a target. */
export function scaleScenario(sizes: { scale: number }): Scenario<ScaleBenchResult> {
  return {
    name: 'scale',
    inDefaultRun: false,
    async run(context) {
      const result = await runScaleBench({
        gatewayUrl: context.stack.gatewayUrl,
        rootToken: context.stack.rootToken,
        mongoUrl: context.mongoUrl,
        databasePrefix: context.databasePrefix,
        scale: sizes.scale,
        connections: context.connections,
        log: context.log,
      });
      const rows = Object.entries(result.latencies).flatMap(([label, latency]) =>
        latency.targetP99Ms === undefined
          ? []
          : [
              {
                path: `${label} (scale ${sizes.scale})`,
                measure: 'p99',
                value: latency.p99Ms,
                unit: 'ms',
                goal: 'max' as const,
                target: latency.targetP99Ms,
              },
            ],
      );
      return { result, rows };
    },
  };
}
