import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBinaries } from './binaries';
import { startInfra } from './index';

const USAGE = `usage: infra <command> [options]
  up     start MongoDB-compatible + NATS servers, print export lines, run until SIGINT/SIGTERM
         --data DIR   state directory (default <root>/.data/dev)
         --fresh      wipe the state directory first
  build  build the local FerretDB and nats-server binaries into <root>/.cache/bin`;

/** Walks up from cwd to the repo root, recognised by the Go wrapper we build; lets the CLI run from any subfolder. */
function findRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'tools', 'ferretdb', 'go.mod'))) return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`no repository root (with tools/ferretdb/go.mod) above ${from}`);
  }
}

// Progress goes to stderr so stdout carries only the export lines.
const log = (line: string): void => {
  process.stderr.write(`[infra] ${line}\n`);
};

/** Returns the process exit code. `argv` excludes node and the script (i.e. process.argv.slice(2)). */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const rootDir = findRoot(process.cwd());
  if (cmd === 'build') {
    const bins = await ensureBinaries(rootDir, log);
    process.stdout.write(`ferretdb: ${bins.ferretdb}\nnats-server: ${bins.natsServer}\n`);
    return 0;
  }
  if (cmd !== 'up') {
    process.stderr.write(`${USAGE}\n`);
    return cmd === undefined || cmd === '--help' || cmd === '-h' ? 0 : 2;
  }

  let dataDir = path.join(rootDir, '.data', 'dev');
  let fresh = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--fresh') fresh = true;
    else if (a === '--data' && rest[i + 1] !== undefined) dataDir = path.resolve(rest[++i] ?? '');
    else {
      process.stderr.write(`unknown option ${String(a)}\n${USAGE}\n`);
      return 2;
    }
  }

  const infra = await startInfra({ rootDir, dataDir, fresh, log });
  process.stdout.write(`export MONGO_URL=${infra.mongoUrl}\nexport NATS_URL=${infra.natsUrl}\n`);
  log(`${infra.source} infrastructure up; Ctrl-C to stop`);
  const sig = await new Promise<NodeJS.Signals>((resolve) => {
    // The pending promise alone does not keep Node alive (children are unref'ed), so hold a timer.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const onSignal = (s: NodeJS.Signals): void => {
      clearInterval(keepAlive);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(s);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  log(`${sig}: stopping…`);
  await infra.stop();
  return 0;
}
