import * as fs from 'node:fs';
import { sleep } from './net';

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** argv of a running process, or undefined when it is gone or unreadable (no /proc, other user). */
export function readCmdline(pid: number): string[] | undefined {
  try {
    return fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((s) => s !== '');
  } catch {
    return undefined;
  }
}

/** State and parent pid from /proc/<pid>/stat; comm may contain spaces and parens, so parse after the last ')'. */
function readStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

export const readPpid = (pid: number): number | undefined => readStat(pid)?.ppid;

/** Exited but not yet reaped: an orphan's zombie lingers until init gets to it (seconds, in some containers). */
const isZombie = (pid: number): boolean => readStat(pid)?.state === 'Z';

export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim().split('\n')[0]);
    return Number.isInteger(pid) && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone: that is the goal anyway.
  }
}

/** SIGTERM, then SIGKILL after graceMs, for a process that is not our child (so there is no 'exit' event to await). */
export async function terminatePid(pid: number, graceMs: number): Promise<void> {
  const alive = (): boolean => pidAlive(pid) && !isZombie(pid);
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive() && Date.now() < deadline) await sleep(50);
  if (!alive()) return;
  signal(pid, 'SIGKILL');
  const killDeadline = Date.now() + 2000;
  while (alive() && Date.now() < killDeadline) await sleep(50);
}
