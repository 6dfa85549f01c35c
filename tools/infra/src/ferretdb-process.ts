import { type ChildProcess, spawn } from 'node:child_process';
import { freePort, waitForTcp } from './net';

/** One FerretDB process of a test, on its own data directory (tests that restart or kill the server). */
export interface FerretdbProcess {
  proc: ChildProcess;
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
}

export async function startFerretdb(bin: string, dir: string): Promise<FerretdbProcess> {
  const port = await freePort();
  const proc = spawn(
    bin,
    ['-listen', `127.0.0.1:${port}`, '-data', dir, '-parent-pid', String(process.pid)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let written = '';
  const keep = (chunk: Buffer): void => {
    written += chunk.toString();
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  await waitForTcp('127.0.0.1', port, 30_000);
  return { proc, url: `mongodb://127.0.0.1:${port}`, output: () => written };
}

export async function stopFerretdb(server: FerretdbProcess, signal: NodeJS.Signals): Promise<void> {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  const exited = new Promise((done) => server.proc.once('exit', done));
  server.proc.kill(signal);
  await exited;
}
