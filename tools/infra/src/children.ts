import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import { sleep, tryConnect } from './net';
import { createRotatingLog, logLimitsFromEnv } from './rotating-log';
import { pidAlive, readCmdline, readPidFile, readPpid, terminatePid } from './proc';

// The local servers (FerretDB, every nats-server) as child processes: logs, pid files, readiness, stop.

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

export interface Child {
  name: string;
  proc: ChildProcess;
  pidFile: string;
  logFile: string;
  /** Set once the process is gone (or failed to spawn); the 'exit' event may fire before anyone awaits it. */
  ended?: string;
  exited: Promise<void>;
}

/**
 * A pid file from an earlier run whose process still runs means that run crashed (or was SIGKILLed) without
 * stopping its children. Only a process that is clearly one of ours for this dataDir is touched.
 */
export async function clearStale(
  dataDir: string,
  name: string,
  bin: string,
  log: (l: string) => void,
): Promise<void> {
  const pidFile = path.join(dataDir, `${name}.pid`);
  const pid = readPidFile(pidFile);
  if (pid === undefined) return;
  const argv = readCmdline(pid);
  // Match on the binary's base name, not its full path: an earlier run may have used the PATH fallback.
  const ours =
    argv !== undefined &&
    argv.length > 0 &&
    path.basename(argv[0] ?? '') === path.basename(bin) &&
    argv.some((a) => a.includes(dataDir));
  if (ours) {
    const owner = readPidFile(path.join(dataDir, 'owner.pid'));
    // Still parented by a live owner: a concurrent run is using this dataDir, not a crashed one.
    if (owner !== undefined && readPpid(pid) === owner && pidAlive(owner)) {
      throw new Error(
        `${dataDir} is in use by process ${owner} (its ${name} is pid ${pid}); stop it or use another dataDir`,
      );
    }
    log(`stopping stale ${name} (pid ${pid}) left by an earlier run`);
    await terminatePid(pid, STOP_GRACE_MS);
  }
  fs.rmSync(pidFile, { force: true });
}

export function spawnChild(
  name: string,
  bin: string,
  args: string[],
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Child {
  const logFile = path.join(dataDir, 'logs', `${name}.log`);
  // The output goes through this process so that the file rotates by size (the servers keep one file open
  // forever otherwise); the servers stop with this process anyway (see killOnExit).
  const out = createRotatingLog(logFile, logLimitsFromEnv());
  out.write(`\n--- ${new Date().toISOString()} started by pid ${process.pid}: ${bin} ${args.join(' ')}\n`);
  const proc = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.pipe(out, { end: false });
  proc.stderr?.pipe(out, { end: false });
  proc.once('close', () => out.end());
  // Don't let the servers (or their output pipes) keep the parent's event loop alive; the 'exit' hook
  // still kills them.
  proc.unref();
  for (const stream of [proc.stdout, proc.stderr]) (stream as Socket | null)?.unref();
  const child: Child = {
    name,
    proc,
    logFile,
    pidFile: path.join(dataDir, `${name}.pid`),
    exited: Promise.resolve(),
  };
  child.exited = new Promise<void>((resolve) => {
    // 'close', not 'exit': its last output has gone through the pipes into the log by then (logTail).
    proc.once('close', (code, sig) => {
      child.ended = sig !== null ? `killed by ${sig}` : `exited with code ${String(code)}`;
      resolve();
    });
    proc.once('error', (err) => {
      child.ended = `failed to start: ${err.message}`;
      resolve();
    });
  });
  if (proc.pid !== undefined) fs.writeFileSync(child.pidFile, `${proc.pid}\n`);
  return child;
}

/** Last lines of this run's section of the (appended) log, for error messages. */
export function logTail(file: string): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text
      .slice(Math.max(0, text.lastIndexOf('\n--- ')))
      .trim()
      .split('\n')
      .slice(-15)
      .join('\n');
  } catch {
    return '';
  }
}

export async function waitReady(c: Child, port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (c.ended !== undefined) {
      throw new Error(
        `${c.name} ${c.ended} before accepting connections on 127.0.0.1:${port}; see ${c.logFile}:\n${logTail(c.logFile)}`,
      );
    }
    if (await tryConnect('127.0.0.1', port)) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${c.name} did not accept connections on 127.0.0.1:${port} within ${READY_TIMEOUT_MS / 1000} s; see ${c.logFile}`,
      );
    }
    await sleep(100);
  }
}

export const running = (c: Child): boolean => c.ended === undefined && c.proc.pid !== undefined;

/** True if the child exited within ms; the timer is cleared so a quick exit doesn't hold the event loop. */
export async function exitedWithin(c: Child, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([c.exited.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Crashes the child (kill -9), as a fault test wants: nothing is flushed, no goodbye to its peers. */
export async function killChild(c: Child): Promise<void> {
  if (!running(c)) return;
  // Unref'ed at spawn: without this, awaiting its exit could let Node exit with the caller still waiting.
  c.proc.ref();
  c.proc.kill('SIGKILL');
  await c.exited;
}

export async function stopChild(c: Child): Promise<void> {
  if (running(c)) {
    // The child was unref'ed at spawn; without this, awaiting its exit after SIGKILL would let Node exit
    // with stop() still pending.
    c.proc.ref();
    c.proc.kill('SIGTERM');
    if (!(await exitedWithin(c, STOP_GRACE_MS))) {
      c.proc.kill('SIGKILL');
      await c.exited;
    }
  }
  fs.rmSync(c.pidFile, { force: true });
}
