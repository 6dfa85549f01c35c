import type { CpuSampler } from './cpu';
import { percentile } from './stats';

/**
 * The listing phase of the events scenario: each list request of the events API, sequentially, through the
 * gateway, on the seeded store. Latency is shared-machine wall time; the CPU each process spent per request
 * (events service, FerretDB, gateway) is what a design change has to move (the mixed scenario adds them up).
 */

/** Who asks: root (an administrator: no per-event check) or a Developer of the bench's group. */
export type Caller = 'root' | 'member';

export interface ListTarget {
  label: string;
  path: string;
  as: Caller;
}

export interface ListMeasure {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU milliseconds per request of the processes that answer a list. */
  cpuMs: { events: number; ferretdb: number; gateway: number };
  /** X-Total of the last answer (null: not sent, past 10,000) and the events it held. */
  total: number | null;
  count: number;
}

/** At most this many requests per target, and no more once a target has taken this long (deep walks). */
const MAX_REQUESTS = 50;
const MIN_REQUESTS = 5;
const TIME_BUDGET_MS = 20_000;

const DAY_MS = 86_400_000;
const isoDay = (at: number): string => new Date(at).toISOString().slice(0, 10);

/**
 * The lists measured. The seed gives the list project every tenth event, one a second back from now, so
 * `before`/`after` a day in the middle of the seeded span each match about half of them, and page 2,500 of
 * 20 is the middle of the project's 100,000 events at 1,000,000 stored. Root wrote every seeded event;
 * the member reads only the list project's share of them (the rest are in private projects).
 */
export function listTargets(listProject: number, stored: number): ListTarget[] {
  const deepProject = Math.max(1, Math.floor(stored / 10 / 20 / 2));
  const deepAll = Math.max(1, Math.floor(stored / 20 / 2));
  const middle = isoDay(Date.now() - Math.floor(stored / 2) * 1_000);
  const firstDay = isoDay(Date.now() - stored * 1_000 + DAY_MS);
  const project = `/projects/${listProject}/events`;
  return [
    { label: 'project page 1', path: project, as: 'root' },
    { label: `project page ${deepProject}`, path: `${project}?page=${deepProject}`, as: 'root' },
    { label: 'project action=created', path: `${project}?action=created`, as: 'root' },
    { label: 'project target_type=issue', path: `${project}?target_type=issue`, as: 'root' },
    {
      label: `project target_type=issue page ${deepProject}`,
      path: `${project}?target_type=issue&page=${deepProject}`,
      as: 'root',
    },
    { label: `project before=${middle}`, path: `${project}?before=${middle}`, as: 'root' },
    { label: `project after=${middle}`, path: `${project}?after=${middle}`, as: 'root' },
    {
      label: `project after=${firstDay}&before=${middle}&sort=asc`,
      path: `${project}?after=${firstDay}&before=${middle}&sort=asc`,
      as: 'root',
    },
    { label: 'project page 1 (member)', path: project, as: 'member' },
    { label: 'user events page 1', path: '/users/1/events', as: 'root' },
    { label: `user events page ${deepProject}`, path: `/users/1/events?page=${deepProject}`, as: 'root' },
    { label: 'user events page 1 (member)', path: '/users/1/events', as: 'member' },
    {
      label: 'user events target_type=issue (member)',
      path: '/users/1/events?target_type=issue',
      as: 'member',
    },
    { label: 'scope=all page 1', path: '/events?scope=all', as: 'root' },
    { label: `scope=all page ${deepAll}`, path: `/events?scope=all&page=${deepAll}`, as: 'root' },
    { label: 'scope=all page 1 (member)', path: '/events?scope=all', as: 'member' },
  ];
}

export interface ListingContext {
  gatewayUrl: string;
  tokens: Record<Caller, string>;
  /** Samples the stack's processes by name (`events`, `gateway`, `ferretdb`). */
  cpu: CpuSampler;
  log: (line: string) => void;
}

async function getList(
  context: ListingContext,
  target: ListTarget,
): Promise<{ status: number; total: number | null; count: number }> {
  const response = await fetch(`${context.gatewayUrl}/api/v4${target.path}`, {
    headers: { 'PRIVATE-TOKEN': context.tokens[target.as] },
    signal: AbortSignal.timeout(120_000),
  });
  const body: unknown = await response.json();
  const total = response.headers.get('x-total');
  return {
    status: response.status,
    total: total === null ? null : Number(total),
    count: Array.isArray(body) ? body.length : 0,
  };
}

/** Times one target: up to MAX_REQUESTS sequential requests, fewer once TIME_BUDGET_MS is spent. */
export async function measureList(context: ListingContext, target: ListTarget): Promise<ListMeasure> {
  await getList(context, target); // warm: caches, the first statement preparation
  const samples: number[] = [];
  const before = context.cpu.snapshot();
  const started = performance.now();
  let last = { status: 0, total: null as number | null, count: 0 };
  while (
    samples.length < MIN_REQUESTS ||
    (samples.length < MAX_REQUESTS && performance.now() - started < TIME_BUDGET_MS)
  ) {
    const t0 = performance.now();
    last = await getList(context, target);
    samples.push(performance.now() - t0);
    if (last.status !== 200) throw new Error(`GET ${target.path} answered ${last.status}`);
  }
  const after = context.cpu.snapshot();
  const per = (name: string) =>
    Math.round((((after.ms[name] ?? 0) - (before.ms[name] ?? 0)) / samples.length) * 100) / 100;
  samples.sort((a, b) => a - b);
  return {
    requests: samples.length,
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
    cpuMs: { events: per('events'), ferretdb: per('ferretdb'), gateway: per('gateway') },
    total: last.total,
    count: last.count,
  };
}

export async function measureLists(
  context: ListingContext,
  targets: ListTarget[],
): Promise<Record<string, ListMeasure>> {
  const results: Record<string, ListMeasure> = {};
  for (const target of targets) {
    const m = await measureList(context, target);
    results[target.label] = m;
    context.log(
      `events: ${target.label}: p50 ${m.p50Ms.toFixed(1)} ms, p99 ${m.p99Ms.toFixed(1)} ms, CPU/request ` +
        `events ${m.cpuMs.events} ms, ferretdb ${m.cpuMs.ferretdb} ms, gateway ${m.cpuMs.gateway} ms ` +
        `(${m.requests} requests, X-Total ${m.total ?? 'none'}, ${m.count} listed)`,
    );
  }
  return results;
}

/** The results as a Markdown table for the scenario's results file. */
export function listingMarkdown(results: Record<string, ListMeasure>): string {
  const rows = Object.entries(results).map(
    ([label, m]) =>
      `| ${label} | ${m.p50Ms.toFixed(1)} | ${m.p99Ms.toFixed(1)} | ${m.cpuMs.events} | ${m.cpuMs.ferretdb} | ` +
      `${m.cpuMs.gateway} | ${m.total ?? '—'} | ${m.requests} |`,
  );
  return [
    '| list | p50 ms | p99 ms | events CPU ms/req | FerretDB CPU ms/req | gateway CPU ms/req | X-Total | requests |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
