import mongoose from 'mongoose';
import { encodeTimeKeysetCursor } from '@gl/service-kit';
import { formatCpu, type CpuSampler } from './cpu';
import { callGateway, expectReply } from './gateway-api';
import { waitFor } from './mixed/clone';
import { loadIssues } from './mixed/issue-loader';
import type { Scenario, SummaryRow } from './scenario';
import { percentile, roundTenth } from './stats';

/**
 * `npm run bench -- --scenario pollers [--scale F]`: what the clients that poll cost (the Pollers issue).
 * One project with 20,000 issues (× F) copied by the mixed scenario's bulk loader from two made through
 * the API; then, each read one after another through the gateway, with every process's CPU per request:
 * (a) the issue list's first page, a deep page by offset (`page=500&per_page=20`) and the same page by
 * keyset (`pagination=keyset`, its cursor written with the service's codec for the issue just before the
 * page rather than reached by walking 500 pages), and (b) one issue without and with a current
 * `If-None-Match` (a 304 the gateway decides from resource versions, routing/versioned-reads.ts, without
 * forwarding the request).
 */
const FULL_ISSUES = 20_000;
const PER_PAGE = 20;
const DEEP_PAGE = 500;
const SAMPLES = 200;
const WARM_UP = 20;
/** p90 latency every read is held to, as the columns scenario's pages are. */
const TARGET_P90_MS = 50;
/** A deep keyset page may cost at most this much more CPU than the first page. */
const KEYSET_CPU_SLACK = 1.25;
/** The stack's CPU (the load generator's left out) for a 304 may be at most this share of the 200's. */
const NOT_MODIFIED_CPU_SHARE = 0.25;
const LOAD_GENERATOR = 'bench (load generator)';

export interface PollerSeries {
  path: string;
  requests: number;
  status: number;
  p50Ms: number;
  p90Ms: number;
  /** CPU milliseconds per request of each process, busiest first, with a total (cpu.ts). */
  cpuMsPerRequest: Record<string, number>;
}

export interface PollersBenchResult {
  issues: number;
  deepPage: number;
  series: Record<string, PollerSeries>;
}

interface Reply {
  status: number;
  etag: string | null;
  firstId: number | null;
}

/** One GET through the gateway with extra headers; the body read whole, its first item's id kept. */
async function get(gatewayUrl: string, token: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gatewayUrl}/api/v4${path}`, {
    headers: { 'PRIVATE-TOKEN': token, ...headers },
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : null;
  const first = Array.isArray(parsed) ? (parsed[0] as { id?: number } | undefined) : undefined;
  return { status: response.status, etag: response.headers.get('etag'), firstId: first?.id ?? null };
}

/**
 * The tag a read settles on: the gateway tags a full answer from its copy of the resource versions, which
 * may be a few milliseconds behind the last write; re-read with the last tag until it is a 304.
 */
async function settledTag(
  call: (path: string, headers?: Record<string, string>) => () => ReturnType<typeof get>,
  path: string,
): Promise<string> {
  let { etag } = await call(path)();
  for (let attempt = 0; etag && attempt < 50; attempt += 1) {
    const again = await call(path, { 'If-None-Match': etag })();
    if (again.status === 304) return etag;
    etag = again.etag;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`pollers: GET ${path} never answered its own tag with 304`);
}

/** `SAMPLES` requests one after another after a warm-up: latency percentiles and CPU per request. */
async function measure(
  cpu: CpuSampler,
  path: string,
  status: number,
  request: () => Promise<Reply>,
): Promise<PollerSeries> {
  for (let i = 0; i < WARM_UP; i++) await request();
  const samples: number[] = [];
  const from = cpu.snapshot();
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    const reply = await request();
    samples.push(performance.now() - t0);
    if (reply.status !== status) throw new Error(`pollers: ${path} answered ${reply.status}, not ${status}`);
  }
  const to = cpu.snapshot();
  samples.sort((a, b) => a - b);
  return {
    path,
    requests: samples.length,
    status,
    p50Ms: roundTenth(percentile(samples, 50)),
    p90Ms: roundTenth(percentile(samples, 90)),
    cpuMsPerRequest: cpu.perRequest(from, to, samples.length),
  };
}

/** A private group and project, and two template issues made through the API (one with a comment). */
async function apiFixture(gatewayUrl: string, token: string) {
  const call = (method: string, path: string, body?: Record<string, unknown>) =>
    callGateway(gatewayUrl, token, method, path, body);
  const created = async (path: string, body: Record<string, unknown>) =>
    (await expectReply(call('POST', path, body), 201, `POST ${path}`)).json as Record<string, unknown>;
  const suffix = Date.now().toString(36);
  const group = await created('/groups', { name: `pollers-${suffix}`, path: `pollers-${suffix}` });
  const project = await created('/projects', {
    name: 'polled',
    namespace_id: group.id,
    visibility: 'private',
  });
  const projectId = project.id as number;
  const templateIds: number[] = [];
  for (const title of ['Polled issue', 'Polled issue with a comment']) {
    const issue = await created(`/projects/${projectId}/issues`, { title });
    if (templateIds.length === 1) {
      await created(`/projects/${projectId}/issues/${issue.iid as number}/notes`, { body: 'A comment' });
    }
    templateIds.push(issue.id as number);
  }
  return { projectId, templateIds };
}

/**
 * The cursor of the issue just before the deep page in the list's default order (created_at, then id,
 * descending), read once from the database and written as the service writes cursors.
 */
async function cursorBefore(options: {
  mongoUrl: string;
  databasePrefix: string;
  projectId: number;
  skip: number;
}): Promise<string> {
  const connection = await mongoose
    .createConnection(options.mongoUrl, { dbName: `${options.databasePrefix}discussions` })
    .asPromise();
  try {
    const [before] = await connection
      .collection<{ _id: number; createdAt: Date }>('noteables')
      .find({ kind: 'Issue', projectId: options.projectId })
      .sort({ createdAt: -1, _id: -1 })
      .skip(options.skip - 1)
      .limit(1)
      .toArray();
    if (!before) throw new Error(`pollers: no issue at position ${options.skip}`);
    return encodeTimeKeysetCursor('created_at', before.createdAt, before._id);
  } finally {
    await connection.close();
  }
}

export async function runPollersBench(options: {
  gatewayUrl: string;
  rootToken: string;
  mongoUrl: string;
  databasePrefix: string;
  scale: number;
  cpu: CpuSampler;
  log: (line: string) => void;
}): Promise<PollersBenchResult> {
  const { gatewayUrl, rootToken, cpu, log } = options;
  const count = Math.max(100, Math.round(FULL_ISSUES * options.scale));
  const { projectId, templateIds } = await apiFixture(gatewayUrl, rootToken);
  log(`pollers: loading ${count} issues into project ${projectId}`);
  const loaded = await loadIssues({
    mongoUrl: options.mongoUrl,
    databasePrefix: options.databasePrefix,
    templateIds,
    projects: [projectId],
    issues: count,
    log,
  });
  const total = count + templateIds.length;
  // Page 500 of 20,000: the middle of the list; a smaller run keeps the same place.
  const deepPage = Math.min(DEEP_PAGE, Math.max(2, Math.floor(total / PER_PAGE / 2)));
  const list = `/projects/${projectId}/issues`;
  const call = (path: string, headers?: Record<string, string>) => () =>
    get(gatewayUrl, rootToken, path, headers);
  const listed = await waitFor(async () => (await call(`${list}?per_page=1`)()).status === 200, 30_000);
  if (!listed) throw new Error('pollers: the issue list did not answer 200');

  const cursor = await cursorBefore({ ...options, projectId, skip: (deepPage - 1) * PER_PAGE });
  const paths = {
    page1: `${list}?per_page=${PER_PAGE}`,
    offset: `${list}?page=${deepPage}&per_page=${PER_PAGE}`,
    keyset1: `${list}?pagination=keyset&per_page=${PER_PAGE}`,
    keyset: `${list}?pagination=keyset&per_page=${PER_PAGE}&cursor=${encodeURIComponent(cursor)}`,
  };
  // The cursor starts where the offset page does: the same first issue.
  const [byOffset, byKeyset] = [await call(paths.offset)(), await call(paths.keyset)()];
  if (byOffset.firstId === null || byOffset.firstId !== byKeyset.firstId) {
    throw new Error(
      `pollers: page ${deepPage} starts at ${byOffset.firstId} by offset, ${byKeyset.firstId} by keyset`,
    );
  }

  const iids = loaded.iids.get(projectId)!;
  const one = `${list}/${iids.first + Math.floor(iids.count / 2)}`;
  const etag = await settledTag(call, one);

  const series: Record<string, PollerSeries> = {};
  const run = async (label: string, path: string, status: number, headers?: Record<string, string>) => {
    series[label] = await measure(cpu, path, status, call(path, headers));
    const s = series[label];
    log(
      `pollers: ${label}: p50 ${s.p50Ms} ms, p90 ${s.p90Ms} ms; CPU ms/request ${formatCpu(s.cpuMsPerRequest)}`,
    );
  };
  await run('issues page 1 (offset)', paths.page1, 200);
  await run(`issues page ${deepPage} (offset)`, paths.offset, 200);
  await run('issues page 1 (keyset)', paths.keyset1, 200);
  await run(`issues page ${deepPage} (keyset)`, paths.keyset, 200);
  await run('one issue (200)', one, 200);
  await run('one issue, If-None-Match current (304)', one, 304, { 'If-None-Match': etag });
  return { issues: total, deepPage, series };
}

const cpuTotal = (s: PollerSeries): number => s.cpuMsPerRequest.total ?? 0;
/** What the stack spent, the load generator's share left out. */
const stackCpu = (s: PollerSeries): number =>
  roundTenth((cpuTotal(s) - (s.cpuMsPerRequest[LOAD_GENERATOR] ?? 0)) * 100) / 100;

/** The table rows: p90 of every read, and the CPU of a deep keyset page and of a 304 against what they replace. */
function rowsOf(result: PollersBenchResult): SummaryRow[] {
  const { series, deepPage, issues } = result;
  const rows: SummaryRow[] = Object.entries(series).map(([label, s]) => ({
    path: `pollers: GET ${label} (${issues} issues)`,
    measure: 'p90',
    value: s.p90Ms,
    unit: 'ms',
    goal: 'max',
    target: TARGET_P90_MS,
  }));
  const page1 = series['issues page 1 (offset)']!;
  const keyset = series[`issues page ${deepPage} (keyset)`]!;
  const ok = series['one issue (200)']!;
  const notModified = series['one issue, If-None-Match current (304)']!;
  rows.push(
    {
      path: `pollers: CPU of issues page ${deepPage} by keyset, vs page 1 × ${KEYSET_CPU_SLACK}`,
      measure: 'CPU/req',
      value: cpuTotal(keyset),
      unit: 'ms',
      goal: 'max',
      target: roundTenth(cpuTotal(page1) * KEYSET_CPU_SLACK * 10) / 10,
      before: `offset ${cpuTotal(series[`issues page ${deepPage} (offset)`]!)} ms`,
    },
    {
      path: `pollers: stack CPU of a 304 (If-None-Match), vs the 200's × ${NOT_MODIFIED_CPU_SHARE}`,
      measure: 'CPU/req',
      value: stackCpu(notModified),
      unit: 'ms',
      goal: 'max',
      target: roundTenth(stackCpu(ok) * NOT_MODIFIED_CPU_SHARE * 10) / 10,
      before: `200: ${stackCpu(ok)} ms`,
    },
  );
  return rows;
}

/** Every series with its CPU per process, under the results table. */
function detailsOf(result: PollersBenchResult): string {
  const lines = [
    `## pollers: CPU per request by process (${result.issues} issues in one project, ${SAMPLES} requests each)`,
    '',
    '| read | status | p50 ms | p90 ms | CPU ms per request |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [label, s] of Object.entries(result.series)) {
    lines.push(`| ${label} | ${s.status} | ${s.p50Ms} | ${s.p90Ms} | ${formatCpu(s.cpuMsPerRequest)} |`);
  }
  return lines.join('\n');
}

/** Not part of a plain run (it loads 20,000 issues first). */
export function pollersScenario(sizes: { scale: number }): Scenario<PollersBenchResult> {
  return {
    name: 'pollers',
    inDefaultRun: false,
    async run(context) {
      const result = await runPollersBench({
        gatewayUrl: context.stack.gatewayUrl,
        rootToken: context.stack.rootToken,
        mongoUrl: context.mongoUrl,
        databasePrefix: context.databasePrefix,
        scale: sizes.scale,
        cpu: context.cpu,
        log: context.log,
      });
      return { result, rows: rowsOf(result), details: detailsOf(result) };
    },
  };
}
