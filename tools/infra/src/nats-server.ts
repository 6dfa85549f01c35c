import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBinaries } from './binaries';
import { freePort, waitForTcp } from './net';

export interface NatsServerOptions {
  /** Repository root: the nats-server binary is (built into) <root>/.cache/bin. */
  rootDir: string;
  /** Config, JetStream store and log of this server. */
  dataDir: string;
  /** The server's `max_payload` in bytes (NATS default: 1 MiB). */
  maxPayload?: number;
}

export interface NatsServerHandle {
  url: string;
  /** Stops the server, keeping its port and store (clients see the broker go away). */
  stop(): Promise<void>;
  /** Starts it again on the same port and store, with the given `max_payload` (else the NATS default). */
  start(options?: { maxPayload?: number }): Promise<void>;
  /** Stops the server for good and removes its folder. */
  destroy(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

function config(port: number, storeDir: string, maxPayload: number | undefined): string {
  return [
    `listen: ${JSON.stringify(`127.0.0.1:${port}`)}`,
    ...(maxPayload !== undefined ? [`max_payload: ${maxPayload}`] : []),
    `jetstream { store_dir: ${JSON.stringify(storeDir)} }`,
    '',
  ].join('\n');
}

/**
 * One extra nats-server with JetStream, apart from the shared infrastructure, for tests that need a broker
 * configured differently (a small `max_payload`) or one they may stop and restart.
 */
export async function startNatsServer(options: NatsServerOptions): Promise<NatsServerHandle> {
  const { natsServer } = await ensureBinaries(options.rootDir);
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(path.join(dataDir, 'jetstream'), { recursive: true });
  const port = await freePort();
  const confFile = path.join(dataDir, 'nats.conf');
  const logFile = path.join(dataDir, 'nats.log');
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const killOnExit = (): void => {
    proc?.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  async function start(maxPayload: number | undefined): Promise<void> {
    fs.writeFileSync(confFile, config(port, path.join(dataDir, 'jetstream'), maxPayload));
    const fd = fs.openSync(logFile, 'a');
    try {
      proc = spawn(natsServer, ['-c', confFile], { stdio: ['ignore', fd, fd] });
    } finally {
      fs.closeSync(fd);
    }
    const child = proc;
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.unref();
    await waitForTcp('127.0.0.1', port, READY_TIMEOUT_MS);
  }

  async function halt(): Promise<void> {
    const child = proc;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.ref();
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  await start(options.maxPayload);
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: halt,
    async start(next = {}) {
      await halt();
      await start(next.maxPayload);
    },
    async destroy() {
      await halt();
      process.off('exit', killOnExit);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
