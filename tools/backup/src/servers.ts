import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startInfra } from '@gl/infra';

export interface Servers {
  mongoUrl: string;
  natsUrl: string;
  /** Where they came from, for the first progress line. */
  source: string;
  /** The data directory of the running local default (its gateway writes through them), else null. */
  runningLocalDir: string | null;
  /** Stops what we started ourselves (nothing for servers someone else runs). */
  stop(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The local default's servers while `npm start` runs them: FerretDB's listen address from its command
 * line (`-listen 127.0.0.1:<port>`), NATS's from the nats.conf tools/infra wrote into the data directory.
 */
function runningLocal(dataDir: string): Pick<Servers, 'mongoUrl' | 'natsUrl'> | undefined {
  const ferretPid = readPid(join(dataDir, 'ferretdb.pid'));
  const natsPid = readPid(join(dataDir, 'nats.pid'));
  if (ferretPid === undefined || natsPid === undefined) return undefined;
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${ferretPid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
  const listen = argv[argv.indexOf('-listen') + 1];
  const conf = existsSync(join(dataDir, 'nats.conf')) ? readFileSync(join(dataDir, 'nats.conf'), 'utf8') : '';
  const natsListen = /^listen:\s*"([^"]+)"/m.exec(conf)?.[1];
  if (!listen || argv.indexOf('-listen') < 0 || !natsListen) return undefined;
  return { mongoUrl: `mongodb://${listen}`, natsUrl: `nats://${natsListen}` };
}

/**
 * Which servers to back up or restore: MONGO_URL + NATS_URL when both are set (compose, your own
 * servers); else the local default of DATA_DIR (`.data/dev`) — the running one, or, when the
 * installation is stopped, its FerretDB and nats-server started on its files for the time of the run.
 */
export async function locateServers(
  rootDir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<Servers> {
  if (env.MONGO_URL && env.NATS_URL) {
    return {
      mongoUrl: env.MONGO_URL,
      natsUrl: env.NATS_URL,
      source: 'MONGO_URL and NATS_URL',
      runningLocalDir: null,
      stop: async () => {},
    };
  }
  const dataDir = resolve(rootDir, env.DATA_DIR ?? '.data/dev');
  const running = runningLocal(dataDir);
  if (running)
    return {
      ...running,
      source: `the running local infrastructure of ${dataDir}`,
      runningLocalDir: dataDir,
      stop: async () => {},
    };
  log(`no running infrastructure for ${dataDir}: starting it for this run`);
  const infra = await startInfra({ rootDir, dataDir, log });
  if (infra.source !== 'local') {
    // With a Docker engine `npm start` runs throw-away containers: a fresh pair holds nothing to back up,
    // and a restore into one would vanish when this command ends.
    await infra.stop();
    throw new Error(
      `no local infrastructure in ${dataDir} (a Docker engine is present): set MONGO_URL and NATS_URL to the servers to use`,
    );
  }
  return {
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    source: `${infra.source} infrastructure started on ${dataDir}`,
    runningLocalDir: null,
    stop: () => infra.stop(),
  };
}
