import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mongoose from 'mongoose';
import { ensureBinaries } from './binaries';
import { freePort, waitForTcp } from './net';

const { MongoClient } = mongoose.mongo;

/** One FerretDB of a differential test, on a data directory of its own, with a client on it. */
export interface PairedServer {
  client: InstanceType<typeof MongoClient>;
  proc: ChildProcess;
  dir: string;
  /** Every query shape the server answered by reading a whole table (patch 0003). */
  scanReport: string;
}

/** The same binary with our pushdown and without it: the second answers every query in Go, as upstream. */
export interface ServerPair {
  withPushdown: PairedServer;
  withoutPushdown: PairedServer;
}

async function startServer(bin: string, disablePushdown: boolean, prefix: string): Promise<PairedServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const scanReport = path.join(dir, 'scans.jsonl');
  const port = await freePort();
  const args = ['-listen', `127.0.0.1:${port}`, '-data', dir, '-parent-pid', String(process.pid)];
  if (disablePushdown) args.push('-disable-pushdown');
  const proc = spawn(bin, args, {
    stdio: 'ignore',
    env: { ...process.env, FERRETDB_SCAN_REPORT: scanReport },
  });
  await waitForTcp('127.0.0.1', port, 30_000);
  const client = await MongoClient.connect(`mongodb://127.0.0.1:${port}`);
  return { client, proc, dir, scanReport };
}

async function stopServer(server: PairedServer | undefined): Promise<void> {
  if (!server) return;
  await server.client.close();
  const exited = new Promise((done) => server.proc.once('exit', done));
  server.proc.kill('SIGTERM');
  await exited;
  fs.rmSync(server.dir, { recursive: true, force: true });
}

/** Builds the binary if needed, then starts both servers side by side (data under `prefix` in tmp). */
export async function startServerPair(rootDir: string, prefix: string): Promise<ServerPair> {
  const bins = await ensureBinaries(rootDir, () => undefined);
  const [withPushdown, withoutPushdown] = await Promise.all([
    startServer(bins.ferretdb, false, prefix),
    startServer(bins.ferretdb, true, prefix),
  ]);
  return { withPushdown, withoutPushdown };
}

export async function stopServerPair(pair: Partial<ServerPair> | undefined): Promise<void> {
  await Promise.all([stopServer(pair?.withPushdown), stopServer(pair?.withoutPushdown)]);
}
