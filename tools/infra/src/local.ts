import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBinaries } from './binaries';
import { type Child, clearStale, running, spawnChild, stopChild, waitReady } from './children';
import { freePort } from './net';
import { NATS_CLUSTER_SIZES, natsNodeNames, startNatsNodes, type NatsNodes } from './nats-nodes';
import type { InfraHandle, StartInfraOptions } from './types';

export async function startLocal(opts: StartInfraOptions): Promise<InfraHandle> {
  const log = opts.log ?? ((): void => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const bins = await ensureBinaries(opts.rootDir, log);

  const natsNodes = opts.natsNodes ?? 1;
  if (!(NATS_CLUSTER_SIZES as readonly number[]).includes(natsNodes))
    throw new Error(`a local NATS cluster has ${NATS_CLUSTER_SIZES.join(', ')} nodes, not ${natsNodes}`);

  // Before any wipe: the pid files that identify leftovers live inside dataDir. Every nats name, not only
  // this run's: the last run may have had another cluster size.
  await clearStale(dataDir, 'ferretdb', bins.ferretdb, log);
  for (const name of new Set(NATS_CLUSTER_SIZES.flatMap(natsNodeNames)))
    await clearStale(dataDir, name, bins.natsServer, log);
  if (opts.fresh === true) fs.rmSync(dataDir, { recursive: true, force: true });
  for (const d of ['ferretdb', 'logs']) fs.mkdirSync(path.join(dataDir, d), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'owner.pid'), `${process.pid}\n`);
  const mongoPort = await freePort();

  const children: Child[] = [];
  let nats: NatsNodes | undefined;
  // Synchronous on purpose: 'exit' handlers cannot await. Covers normal exit and process.exit(); a SIGKILLed
  // parent is covered by ferretdb's -parent-pid watchdog and, for nats, by clearStale on the next start.
  const killOnExit = (): void => {
    for (const c of [...children, ...(nats?.children ?? [])]) {
      if (running(c)) c.proc.kill('SIGKILL');
      fs.rmSync(c.pidFile, { force: true });
    }
  };
  process.on('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async (): Promise<void> => {
      await Promise.all([...children.map(stopChild), nats?.stop()]);
      process.off('exit', killOnExit);
    })());

  let natsStarted: Promise<NatsNodes> | undefined;
  try {
    const ferret = spawnChild(
      'ferretdb',
      bins.ferretdb,
      [
        '-listen',
        `127.0.0.1:${mongoPort}`,
        '-data',
        path.join(dataDir, 'ferretdb'),
        '-parent-pid',
        String(process.pid),
      ],
      dataDir,
      opts.scanReport === undefined ? process.env : { ...process.env, FERRETDB_SCAN_REPORT: opts.scanReport },
    );
    children.push(ferret);
    natsStarted = startNatsNodes({ bin: bins.natsServer, dataDir, nodes: natsNodes, log });
    [, nats] = await Promise.all([waitReady(ferret, mongoPort), natsStarted]);
  } catch (err) {
    // FerretDB failed while the broker was still starting: stop the broker too once it is up (a broker
    // that failed has stopped its own nodes).
    nats ??= await natsStarted?.catch(() => undefined);
    await stop();
    throw err;
  }

  const broker = nats;
  const handle: InfraHandle = {
    mongoUrl: `mongodb://127.0.0.1:${mongoPort}`,
    natsUrl: broker.url,
    source: 'local',
    stop,
    faults: {
      natsNodes: broker.names.length,
      killNats: (node = 0) => broker.kill(node),
      restartNats: (node = 0) => broker.restart(node),
    },
  };
  log(
    `FerretDB ${handle.mongoUrl}, NATS ${handle.natsUrl} (monitoring ${broker.monitorUrls.join(', ')}); logs in ${path.join(dataDir, 'logs')}`,
  );
  return handle;
}
