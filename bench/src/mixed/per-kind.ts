import type { CpuSampler } from '../cpu';
import type { MixedFixture } from './fixture';
import type { RequestKind } from './mix';
import { runStep } from './steps';

/**
 * `--per-kind RATE`: each kind of the mix alone at one arrival rate, so the CPU a kind costs per request
 * in each process can be read off and compared with the other kinds (the mixed steps only give the CPU
 * of the whole mix). At a low rate each process's idle background work is also divided among the
 * requests, so the figures compare kinds with each other rather than give an absolute cost.
 */
export interface PerKindRow {
  name: string;
  requests: number;
  errors: number;
  p50Ms: number;
  p90Ms: number;
  /** CPU milliseconds per request per process (the bench's own load generator left out), with a total. */
  cpuMsPerRequest: Record<string, number>;
}

export interface PerKindResult {
  rate: number;
  seconds: number;
  rows: PerKindRow[];
}

const isServer = (process: string): boolean => !process.startsWith('bench') && process !== 'total';
const rounded = (ms: number): number => Math.round(ms * 100) / 100;

export async function runPerKind(options: {
  gatewayUrl: string;
  fixture: MixedFixture;
  kinds: RequestKind[];
  rate: number;
  seconds: number;
  cpu: CpuSampler;
  isStopped: () => boolean;
  log: (line: string) => void;
}): Promise<PerKindResult> {
  const rows: PerKindRow[] = [];
  for (const [i, kind] of options.kinds.entries()) {
    if (options.isStopped()) break;
    const step = await runStep({
      gatewayUrl: options.gatewayUrl,
      fixture: options.fixture,
      kinds: [{ ...kind, weight: 1 }],
      rate: options.rate,
      seconds: options.seconds,
      // Seeds apart from the mixed steps' (1, 2, …) so a kind alone draws other callers and targets.
      seed: 100 + i,
      cpu: options.cpu,
      isStopped: options.isStopped,
    });
    const servers = Object.entries(step.cpuMsPerRequest).filter(([process]) => isServer(process));
    const total = rounded(servers.reduce((sum, [, ms]) => sum + ms, 0));
    const figures = step.kinds[kind.name];
    const row: PerKindRow = {
      name: kind.name,
      requests: figures?.requests ?? 0,
      errors: figures?.errors ?? 0,
      p50Ms: figures?.p50Ms ?? Number.NaN,
      p90Ms: figures?.p90Ms ?? Number.NaN,
      cpuMsPerRequest: { ...Object.fromEntries(servers), total },
    };
    rows.push(row);
    options.log(`mixed: per kind at ${options.rate}/s: ${kind.name}: ${perKindCpu(row)}`);
  }
  return { rate: options.rate, seconds: options.seconds, rows };
}

/** `total 28.82: discussions 11.93, ferretdb 11.50, gateway 2.63` (the three busiest processes). */
export function perKindCpu(row: PerKindRow, busiest = 3): string {
  const { total, ...processes } = row.cpuMsPerRequest;
  const top = Object.entries(processes)
    .sort((a, b) => b[1] - a[1])
    .slice(0, busiest)
    .map(([process, ms]) => `${process} ${ms.toFixed(2)}`);
  return `total ${(total ?? 0).toFixed(2)}: ${top.join(', ')}`;
}

export function perKindTable(result: PerKindResult): string[] {
  const cell = (n: number): string => (Number.isFinite(n) ? String(n) : '-');
  return [
    `Each kind alone at ${result.rate} req/s for ${result.seconds} s (time to first byte, ms; CPU ms per ` +
      'request per process, busiest first; idle background work is divided among the requests too):',
    '',
    '| kind | requests | errors | p50 | p90 | CPU ms per request |',
    '|---|---:|---:|---:|---:|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.name} | ${r.requests} | ${r.errors} | ${cell(r.p50Ms)} | ${cell(r.p90Ms)} | ` +
        `${perKindCpu(r, Number.POSITIVE_INFINITY)} |`,
    ),
  ];
}
