import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the CPU of a throughput phase goes: each process's user + system time (from /proc/<pid>/stat, and
 * process.cpuUsage() for the bench's own load generator) over the phase, per request. On 2 cores the
 * processes share them, so these figures say which process a faster path has to come from.
 */
export interface CpuSnapshot {
  /** Milliseconds of CPU per process name. */
  ms: Record<string, number>;
}

/** Clock ticks per second of /proc/<pid>/stat on Linux (USER_HZ), the same on every common build. */
const TICKS_PER_SECOND = 100;

function readProcCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1_000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The pids the local infrastructure recorded in its data directory (`ferretdb.pid`, `nats.pid`). */
export function infrastructurePids(dataDir: string): Record<string, number> {
  const pids: Record<string, number> = {};
  for (const file of readdirSync(dataDir)) {
    if (!file.endsWith('.pid') || file === 'owner.pid') continue;
    const pid = Number(readFileSync(join(dataDir, file), 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0) pids[file.slice(0, -'.pid'.length)] = pid;
  }
  return pids;
}

export function cpuSampler(pids: Record<string, number>) {
  function snapshot(): CpuSnapshot {
    const ms: Record<string, number> = {};
    for (const [name, pid] of Object.entries(pids)) {
      const used = readProcCpuMs(pid);
      if (used !== undefined) ms[name] = used;
    }
    const own = process.cpuUsage();
    ms['bench (load generator)'] = (own.user + own.system) / 1_000;
    return { ms };
  }

  /** CPU milliseconds per request of each process between two snapshots, busiest first, with a total. */
  function perRequest(from: CpuSnapshot, to: CpuSnapshot, requests: number): Record<string, number> {
    const rows = Object.keys(to.ms)
      .map((name) => [name, ((to.ms[name] ?? 0) - (from.ms[name] ?? 0)) / Math.max(1, requests)] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1]);
    const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
    const rounded = (ms: number): number => Math.round(ms * 100) / 100;
    const entries: [string, number][] = [...rows.map(([n, ms]): [string, number] => [n, rounded(ms)])];
    entries.push(['total', rounded(total)]);
    return Object.fromEntries(entries);
  }

  return { snapshot, perRequest };
}

export type CpuSampler = ReturnType<typeof cpuSampler>;

export const formatCpu = (perRequest: Record<string, number>): string =>
  Object.entries(perRequest)
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ');
