import { randomUUID } from 'node:crypto';
import { issueCommentCreated, type IssueCommentRef } from '@gl/contracts';
import { connectBus, createLogger, type Bus } from '@gl/service-kit';
import { formatCpu, type CpuSampler } from './cpu';
import { seedActivityLog } from './events.bench';
import { deliveryFigures, startReceivers, type DeliveryFigures, type Sent } from './hook-receivers';
import { latencySplit, type LatencySplit } from './hook-split';
import type { Scenario } from './scenario';
import { rootCall } from './gateway-api';

/**
 * `npm run bench -- --scenario hooks [--scale F]`: webhook delivery latency (issue 33, "Measured"): write →
 * delivery at the receiver at 200 events/s across 50 hooks, with 1,000,000 × F activity events stored
 * (F 0.1 unless given: the events service's bulk loader writes 1,000,000 in about 5 minutes).
 * (1) 50 projects in one group, each with a project hook (note_events, lib/api/project_hooks.rb) whose URL
 *     is a receiver of the bench's on 127.0.0.1, an issue and a comment thread, all through the gateway;
 *     the comment's own delivery proves every hook is live before anything is timed;
 * (2) the activity log seeded (seedActivityLog, events.bench.ts) over those projects;
 * (3) 10 s of warm-up at the same rate, drained and not timed; then
 *     30 s of `gl.discussions.note.created` events published at 200/s, round-robin over the projects, each
 *     as discussions publishes one for a new comment (notes.service.ts, note-events.ts) about the comment
 *     made in (1), so the hooks service reads a real note and issue back from discussions for each payload
 *     (200 comment writes/s through the API would saturate the 2 cores by themselves);
 * (4) up to 30 s more for stragglers; then latency (arrival − occurredAt) p50/p90/p99, deliveries/s,
 *     duplicates (an Idempotency-Key received twice), per-hook order violations, missing events.
 * Bounded: 30 s of load, everything on 127.0.0.1, receivers closed at the end.
 */
export interface HooksBenchOptions {
  gatewayUrl: string;
  rootToken: string;
  natsUrl: string;
  mongoUrl: string;
  /** The events service's database (`<prefix>events`). */
  eventsDatabase: string;
  /** The hooks service's database (`<prefix>hooks`), whose delivery log splits the latency. */
  hooksDatabase: string;
  stored: number;
  rate: number;
  hooks: number;
  loadSeconds: number;
  cpu: CpuSampler;
  log: (line: string) => void;
}

export interface HooksBenchResult extends DeliveryFigures {
  hooks: number;
  targetRate: number;
  publishedPerSecond: number;
  loadSeconds: number;
  storedEvents: number;
  seedSeconds: number;
  publishErrors: number;
  /** CPU milliseconds per event of each process, from the first publish until the last arrival. */
  cpuMsPerEvent: Record<string, number>;
  /** Event → queued (consumer) and queued → arrival (sender), from the hooks service's delivery log. */
  split: LatencySplit;
}

const DRAIN_MS = 30_000;
/** Seconds of events sent at the target rate before the timed load (then drained). */
const WARM_UP_SECONDS = 10;
const SETUP_WAIT_MS = 60_000;
const SETUP_CONCURRENCY = 5;

/** One project with its hook, issue and comment thread, as a client makes them. */
async function makeTarget(
  options: HooksBenchOptions,
  groupId: number,
  index: number,
  url: string,
): Promise<IssueCommentRef> {
  const project = await rootCall<{ id: number }>(options, 'POST', '/projects', {
    name: `hooked-${index}`,
    namespace_id: groupId,
  });
  await rootCall(options, 'POST', `/projects/${project.id}/hooks`, {
    url,
    push_events: false,
    note_events: true,
  });
  const issue = await rootCall<{ id: number; iid: number; title: string }>(
    options,
    'POST',
    `/projects/${project.id}/issues`,
    { title: `Hooked issue ${index}` },
  );
  const thread = await rootCall<IssueCommentRef['thread']>(
    options,
    'POST',
    `/projects/${project.id}/issues/${issue.iid}/discussions`,
    { body: `Hooked comment ${index}` },
  );
  return { projectId: project.id, issue: { id: issue.id, iid: issue.iid, title: issue.title }, thread };
}

async function waitFor(check: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Publishes `rate` events per second for `seconds`, round-robin over the targets, each recorded in `sent`.
 * Open model: event n is due at n / rate seconds, whatever the stack's pace.
 */
async function publishAtRate(
  bus: Bus,
  targets: IssueCommentRef[],
  rate: number,
  seconds: number,
  sent: Map<string, Sent>,
  log: (line: string) => void,
): Promise<{ errors: number; seconds: number }> {
  const total = rate * seconds;
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  let errors = 0;
  let published = 0;
  let logged = 0;
  while (published < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1_000) * rate) + 1);
    for (; published < due; published++) {
      const hook = published % targets.length;
      const event = issueCommentCreated(targets[hook]!, randomUUID());
      sent.set(event.id, {
        hook,
        sequence: Math.floor(published / targets.length),
        occurredAtMs: Date.parse(event.occurredAt),
      });
      pending.push(bus.publish(event).catch(() => void (errors += 1)));
    }
    if (published - logged >= rate * 5) {
      logged = published;
      log(`hooks: published ${published} of ${total}`);
    }
    await sleep(2);
  }
  await Promise.all(pending);
  return { errors, seconds: (performance.now() - t0) / 1_000 };
}

export async function runHooksBench(options: HooksBenchOptions): Promise<HooksBenchResult> {
  const { log } = options;
  const receivers = await startReceivers(options.hooks);
  try {
    const suffix = Date.now().toString(36);
    const group = await rootCall<{ id: number }>(options, 'POST', '/groups', {
      name: `hooks-${suffix}`,
      path: `hooks-${suffix}`,
    });
    const targets: IssueCommentRef[] = new Array<IssueCommentRef>(options.hooks);
    let next = 0;
    await Promise.all(
      Array.from({ length: SETUP_CONCURRENCY }, async () => {
        for (let i = next++; i < options.hooks; i = next++)
          targets[i] = await makeTarget(options, group.id, i, receivers.urls[i]!);
      }),
    );
    // Each hook gets its comment's delivery (the write made through the API) before anything is timed.
    const reached = () => new Set(receivers.arrivals.map((a) => a.hook));
    await waitFor(
      () => reached().size === options.hooks,
      SETUP_WAIT_MS,
      () => `the set-up comments' deliveries (${reached().size} of ${options.hooks} hooks reached)`,
    );
    log(`hooks: ${options.hooks} projects with a hook each, every hook reached once`);

    const seedStart = Date.now();
    await seedActivityLog({
      mongoUrl: options.mongoUrl,
      database: options.eventsDatabase,
      events: options.stored,
      realProject: targets[0]!.projectId,
      spread: { projects: targets.map((t) => t.projectId), authors: [1] },
      log,
    });
    const seedSeconds = (Date.now() - seedStart) / 1_000;
    log(`hooks: ${options.stored} activity events stored in ${seedSeconds.toFixed(1)} s`);

    const bus = await connectBus(options.natsUrl, 'hooks-bench', createLogger('hooks-bench', 'warn'));
    const sent = new Map<string, Sent>();
    let publishErrors = 0;
    let publishedSeconds: number;
    let cpuBefore = options.cpu.snapshot();
    try {
      // Warm-up at the same rate, not measured: a stack fresh from its start and the seeding serves its
      // first seconds slower (code not yet optimised, caches empty), as GitLab's GPT warms up before timing.
      const warm = new Map<string, Sent>();
      await publishAtRate(bus, targets, options.rate, WARM_UP_SECONDS, warm, log);
      const warmArrived = () => receivers.arrivals.filter((a) => warm.has(a.eventId)).length;
      await waitFor(
        () => warmArrived() >= warm.size,
        DRAIN_MS,
        () => `the warm-up's deliveries (${warmArrived()} of ${warm.size})`,
      ).catch((err: Error) => log(`hooks: ${err.message}; timing anyway`));
      log(`hooks: warmed up with ${warm.size} events over ${WARM_UP_SECONDS} s`);
      cpuBefore = options.cpu.snapshot();
      const published = await publishAtRate(bus, targets, options.rate, options.loadSeconds, sent, log);
      publishErrors = published.errors;
      publishedSeconds = published.seconds;
    } finally {
      await bus.close();
    }
    const arrived = () => new Set(receivers.arrivals.map((a) => a.eventId).filter((id) => sent.has(id)));
    try {
      await waitFor(
        () => arrived().size >= sent.size,
        DRAIN_MS,
        () => `every delivery (${arrived().size} of ${sent.size} arrived)`,
      );
    } catch (err) {
      log(`hooks: ${(err as Error).message}; reported as missing`);
    }
    const cpuMsPerEvent = options.cpu.perRequest(cpuBefore, options.cpu.snapshot(), sent.size);
    log(`hooks: CPU ms per event: ${formatCpu(cpuMsPerEvent)}`);
    const figures = deliveryFigures(sent, receivers.arrivals);
    log(
      `hooks: ${figures.delivered}/${figures.sent} delivered, p50 ${figures.p50Ms} ms, p90 ${figures.p90Ms} ms, ` +
        `p99 ${figures.p99Ms} ms, ${figures.deliveriesPerSecond}/s, duplicates ${figures.duplicates}, ` +
        `order violations ${figures.orderViolations}`,
    );
    const split = await latencySplit(options.mongoUrl, options.hooksDatabase, sent, receivers.arrivals);
    log(
      `hooks: ${split.queued} queued; event → queued p50 ${split.queueP50Ms} ms, p99 ${split.queueP99Ms} ms; ` +
        `queued → arrival p50 ${split.sendP50Ms} ms, p99 ${split.sendP99Ms} ms`,
    );
    return {
      ...figures,
      split,
      hooks: options.hooks,
      targetRate: options.rate,
      publishedPerSecond: Math.round((sent.size / publishedSeconds) * 10) / 10,
      loadSeconds: options.loadSeconds,
      storedEvents: options.stored,
      seedSeconds,
      publishErrors,
      cpuMsPerEvent,
    };
  } finally {
    await receivers.close();
  }
}

function details(r: HooksBenchResult, storedNote: string): string {
  return [
    `## hooks: write → delivery (${r.hooks} hooks, ${r.targetRate} events/s for ${r.loadSeconds} s, ${storedNote})`,
    '',
    '| figure | value |',
    '| --- | --- |',
    `| events published (rate achieved) | ${r.sent} (${r.publishedPerSecond}/s, ${r.publishErrors} publish errors) |`,
    `| delivered / missing after ${DRAIN_MS / 1_000} s of drain | ${r.delivered} / ${r.missing} |`,
    `| latency arrival − occurredAt p50 / p90 / p99 / max | ${r.p50Ms} / ${r.p90Ms} / ${r.p99Ms} / ${r.maxMs} ms |`,
    `| deliveries/s (first arrivals, first event to last arrival) | ${r.deliveriesPerSecond} |`,
    `| duplicates (Idempotency-Key seen before) | ${r.duplicates} |`,
    `| second deliveries of an event under a new Idempotency-Key | ${r.unkeyedDuplicates} |`,
    `| per-hook order violations | ${r.orderViolations} |`,
    `| activity events stored (seeded in) | ${r.storedEvents.toLocaleString('en-US')} (${r.seedSeconds.toFixed(1)} s) |`,
    `| CPU ms per published event (first publish to end of drain) | ${formatCpu(r.cpuMsPerEvent)} |`,
    `| deliveries queued by the end (hooks' log) | ${r.split.queued} |`,
    `| event → queued (bus, consumer, payload reads) p50 / p99 | ${r.split.queueP50Ms} / ${r.split.queueP99Ms} ms |`,
    `| queued → arrival (sender) p50 / p99 | ${r.split.sendP50Ms} / ${r.split.sendP99Ms} ms |`,
    '',
    'Events are `gl.discussions.note.created` published on the bus as discussions publishes a new ' +
      "comment's, about comments made through the API (the hooks service reads each note and issue back " +
      'from discussions); one hook per project, so each event is one delivery. `--scale F` stores ' +
      '1,000,000 × F activity events first (0.1 unless given: 1,000,000 take the loader about 5 minutes). ' +
      `A ${WARM_UP_SECONDS} s warm-up at the same rate, drained before the timed load, is not counted.`,
  ].join('\n');
}

export interface HooksScenarioOptions {
  /** Activity events stored before the load. */
  stored: number;
}

export function hooksScenario(sizes: HooksScenarioOptions): Scenario<HooksBenchResult> {
  return {
    name: 'hooks',
    inDefaultRun: false,
    async run(context) {
      const result = await runHooksBench({
        gatewayUrl: context.stack.gatewayUrl,
        rootToken: context.stack.rootToken,
        natsUrl: context.natsUrl,
        mongoUrl: context.mongoUrl,
        eventsDatabase: `${context.databasePrefix}events`,
        hooksDatabase: `${context.databasePrefix}hooks`,
        stored: sizes.stored,
        rate: 200,
        hooks: 50,
        loadSeconds: 30,
        cpu: context.cpu,
        log: context.log,
      });
      const stored = `${sizes.stored.toLocaleString('en-US')} events stored`;
      const path = `webhooks: note event → receiver, ${result.targetRate}/s over ${result.hooks} hooks, ${stored}`;
      const count = (measure: string, value: number) =>
        ({ path, measure, value, unit: '', goal: 'max', target: 1 }) as const;
      return {
        result,
        rows: [
          {
            path,
            measure: 'p99 occurredAt → arrival',
            value: result.p99Ms,
            unit: 'ms',
            goal: 'max',
            target: 250,
          },
          {
            path,
            measure: 'deliveries/s',
            value: result.deliveriesPerSecond,
            unit: '/s',
            goal: 'min',
            target: result.targetRate * 0.95,
          },
          count(`not arrived ${DRAIN_MS / 1_000} s after the load`, result.missing),
          count('second deliveries under a new Idempotency-Key', result.unkeyedDuplicates),
          count('per-hook order violations', result.orderViolations),
        ],
        details: details(result, stored),
      };
    },
  };
}
