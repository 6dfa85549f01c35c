import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ferretdbPatchSets, patchFiles, preparePatchedBuild, type PatchSet } from './go-patch';
import { sleep } from './net';
import { pidAlive, readPidFile } from './proc';

type Log = (line: string) => void;

interface GoProgram {
  name: string; // file name under .cache/bin
  dir: string; // Go module directory
  pkg: string; // what to pass to `go build`
  inputs: string[]; // files whose content decides whether a rebuild is needed
  expect: string; // first-build duration, for the progress line
  patches?: PatchSet[]; // changes to dependencies, applied to copies at build time
}

function programs(rootDir: string): { ferretdb: GoProgram; nats: GoProgram } {
  const fdir = path.join(rootDir, 'tools', 'ferretdb');
  const ndir = path.join(rootDir, 'tools', 'nats-server');
  return {
    ferretdb: {
      name: 'ferretdb-local',
      dir: fdir,
      pkg: '.',
      inputs: ['go.mod', 'go.sum', 'main.go'].map((f) => path.join(fdir, f)),
      expect: 'first time takes ~2 minutes',
      patches: ferretdbPatchSets(rootDir),
    },
    nats: {
      name: 'nats-server',
      dir: ndir,
      pkg: 'github.com/nats-io/nats-server/v2',
      inputs: ['go.mod', 'go.sum'].map((f) => path.join(ndir, f)),
      expect: 'first time takes ~1.5 minutes',
    },
  };
}

function inputHash(p: GoProgram): string {
  const h = createHash('sha256').update(`${process.platform}/${process.arch}\n`);
  for (const f of p.inputs)
    h.update(`${path.basename(f)}\n`)
      .update(fs.readFileSync(f))
      .update('\n');
  for (const set of p.patches ?? []) {
    h.update(`${set.module}@${set.version}\n`);
    for (const f of patchFiles(set)) h.update(`${path.basename(f)}\n`).update(fs.readFileSync(f));
  }
  return h.digest('hex');
}

const readText = (f: string): string | undefined => {
  try {
    return fs.readFileSync(f, 'utf8').trim();
  } catch {
    return undefined;
  }
};

function upToDate(binDir: string, p: GoProgram, hash: string): boolean {
  const bin = path.join(binDir, p.name);
  return fs.existsSync(bin) && readText(`${bin}.stamp`) === hash;
}

function goBuild(p: GoProgram, dir: string, out: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // -buildvcs=false: the repo may have no .git or an unreadable one, and VCS stamping would then fail the build.
    const goflags = [process.env.GOFLAGS, '-buildvcs=false']
      .filter((s) => s !== undefined && s !== '')
      .join(' ');
    const child = spawn('go', ['build', '-o', out, p.pkg], {
      cwd: dir,
      env: { ...process.env, GOFLAGS: goflags },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (b: Buffer): void => {
      output = (output + b.toString()).slice(-8000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (err) => {
      reject(new Error(`cannot run the Go toolchain ('go' on PATH): ${err.message}`));
    });
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`go build of ${p.name} failed (exit ${String(code)}):\n${output.trim()}`));
    });
  });
}

/** Builds into a temp name and renames, so a process still running the old binary is unaffected and a half-written file never has the final name. */
async function build(binDir: string, p: GoProgram, hash: string, log: Log): Promise<string> {
  const bin = path.join(binDir, p.name);
  const tmp = `${bin}.tmp-${process.pid}`;
  const t0 = Date.now();
  log(`building ${p.name} (${p.expect})…`);
  try {
    const dir = p.patches
      ? await preparePatchedBuild(p.dir, path.join(binDir, '..', 'go-patched', p.name), p.patches)
      : p.dir;
    for (const set of p.patches ?? []) log(`${p.name}: building with a patched ${set.module} (${set.why})`);
    await goBuild(p, dir, tmp);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.renameSync(tmp, bin);
  fs.writeFileSync(`${bin}.stamp`, `${hash}\n`);
  fs.rmSync(`${bin}.failed`, { force: true });
  log(`built ${p.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return bin;
}

function findOnPath(name: string, exclude: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '' || path.resolve(dir) === exclude) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The Debian nats-server (2.9.10) predates the 2.10.23 crash-loss fix; only acceptable when our build is impossible. */
function natsFallback(binDir: string, reason: string, log: Log): string {
  const system = findOnPath('nats-server', binDir);
  if (system === undefined) throw new Error(`${reason}\nand no nats-server on PATH to fall back to`);
  // Go puts the useful part after its own "go build … failed" header, so show the first lines verbatim.
  const detail = reason
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 3)
    .join('\n    ');
  log(
    `WARNING: the pinned nats-server could not be built, using ${system} instead. Older servers can lose ` +
      `JetStream data after a crash. Delete ${path.join(binDir, 'nats-server.failed')} to retry the build.\n    ${detail}`,
  );
  return system;
}

/** Cross-process lock so concurrent callers (two jest runs) don't build into the same place at once. */
async function withLock<T>(lockFile: string, log: Log, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 15 * 60_000;
  let announced = false;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readPidFile(lockFile);
    // A holder that died mid-build leaves the lock behind. (Two waiters could both clear the same stale
    // lock; that only costs a duplicate build, since the final rename is atomic.)
    let age = 0;
    try {
      age = Date.now() - fs.statSync(lockFile).mtimeMs;
    } catch {
      continue; // released between our attempts
    }
    if ((holder !== undefined && !pidAlive(holder)) || (holder === undefined && age > 5000)) {
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for build lock ${lockFile} (held by pid ${String(holder)})`);
    if (!announced)
      log(`waiting for another process (pid ${String(holder)}) to finish building the local servers…`);
    announced = true;
    await sleep(500);
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

export async function ensureBinaries(
  rootDir: string,
  log: Log = () => undefined,
): Promise<{ ferretdb: string; natsServer: string }> {
  const binDir = path.join(path.resolve(rootDir), '.cache', 'bin');
  const { ferretdb, nats } = programs(path.resolve(rootDir));
  const fHash = inputHash(ferretdb);
  const nHash = inputHash(nats);
  const natsFailedMark = path.join(binDir, `${nats.name}.failed`);
  const natsKnownBroken = (): boolean => (readText(natsFailedMark) ?? '').split('\n')[0] === nHash;

  // Fast path without the lock: the common case is "both already built".
  const done = (): boolean =>
    upToDate(binDir, ferretdb, fHash) && (upToDate(binDir, nats, nHash) || natsKnownBroken());
  if (!done()) {
    fs.mkdirSync(binDir, { recursive: true });
    await withLock(path.join(binDir, '.build.lock'), log, async () => {
      // Re-check: another process may have built while we waited for the lock.
      // Both builds run together; linking and the big single-package compiles are mostly serial, so this overlaps well.
      const jobs: Promise<unknown>[] = [];
      if (!upToDate(binDir, ferretdb, fHash)) jobs.push(build(binDir, ferretdb, fHash, log));
      if (!upToDate(binDir, nats, nHash) && !natsKnownBroken()) {
        jobs.push(
          build(binDir, nats, nHash, log).catch((err: unknown) => {
            // Remembered per input hash so every later start doesn't pay for a failing build again.
            fs.writeFileSync(
              natsFailedMark,
              `${nHash}\n${err instanceof Error ? err.message : String(err)}\n`,
            );
          }),
        );
      }
      const results = await Promise.allSettled(jobs);
      for (const r of results) if (r.status === 'rejected') throw r.reason as Error;
    });
  }

  if (upToDate(binDir, nats, nHash))
    return { ferretdb: path.join(binDir, ferretdb.name), natsServer: path.join(binDir, nats.name) };
  const reason = (readText(natsFailedMark) ?? '').split('\n').slice(1).join('\n');
  return {
    ferretdb: path.join(binDir, ferretdb.name),
    natsServer: natsFallback(binDir, reason === '' ? 'nats-server build failed' : reason, log),
  };
}
