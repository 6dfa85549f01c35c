import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * A maintained set of changes to a Go dependency: one unified diff per change in `dir`, applied in file
 * name order to a copy of the module at build time (the module cache is read-only and shared); the
 * program then builds against the copy through a `replace` directive. Each file starts with its reason.
 */
export interface PatchSet {
  module: string;
  version: string;
  /** Directory of `*.patch` files. */
  dir: string;
  /** Why, for the build log. */
  why: string;
}

/**
 * Our FerretDB v1.24 changes (tools/ferretdb/patches): index-backed queries, the full-scan report, less CPU
 * per operation; and the changes to its SQLite driver (patches/modernc-sqlite): prepared statements kept per
 * connection, which only the driver can do (it prepares every statement again, even a driver Stmt), and
 * SQLite's JSON cache comparing texts word by word (its translated memcmp goes byte by byte).
 */
export function ferretdbPatchSets(rootDir: string): PatchSet[] {
  const dir = path.join(rootDir, 'tools', 'ferretdb', 'patches');
  return [
    {
      module: 'github.com/FerretDB/FerretDB',
      version: 'v1.24.2',
      dir,
      why: 'queries answered by index',
    },
    {
      module: 'modernc.org/sqlite',
      version: 'v1.32.0', // must stay the version go.mod resolves, or the replace changes it
      dir: path.join(dir, 'modernc-sqlite'),
      why: 'prepared statements kept per connection, JSON cache compared by words',
    },
    {
      module: 'github.com/FerretDB/wire',
      version: 'v0.0.8', // as go.mod resolves it, as above
      dir: path.join(dir, 'wire'),
      why: 'replies not decoded again',
    },
  ];
}

/** The patch files in the order they apply. */
export function patchFiles(set: PatchSet): string[] {
  return fs
    .readdirSync(set.dir)
    .filter((f) => f.endsWith('.patch'))
    .sort()
    .map((f) => path.join(set.dir, f));
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${String(code)}):\n${err.trim()}`));
    });
  });
}

/** Module cache copies are read-only; the copy must be writable to patch it and to delete it later. */
function makeWritable(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(full);
    else fs.chmodSync(full, 0o644);
  }
}

/**
 * Copies the program's module (`programDir`) and each patched dependency under `workDir` and returns the
 * directory to run `go build` in. Fails, naming the file, when a patch no longer applies.
 */
export async function preparePatchedBuild(
  programDir: string,
  workDir: string,
  sets: PatchSet[],
): Promise<string> {
  if (fs.existsSync(workDir)) {
    makeWritable(workDir);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const replaces: string[] = [];
  for (const set of sets) {
    // One directory per module, named after it ('/' is not allowed in a single path segment).
    const name = set.module.replace(/[^A-Za-z0-9.-]/g, '+');
    await copyAndPatch(programDir, path.join(workDir, name), set);
    replaces.push(`replace ${set.module} => ../${name}\n`);
  }

  const program = path.join(workDir, 'program');
  fs.cpSync(programDir, program, { recursive: true });
  fs.rmSync(path.join(program, 'patches'), { recursive: true, force: true });
  fs.appendFileSync(path.join(program, 'go.mod'), `\n${replaces.join('')}`);
  return program;
}

/** Copies `set`'s module from the module cache to `source` and applies its patches in order. */
async function copyAndPatch(programDir: string, source: string, set: PatchSet): Promise<void> {
  // The replace directive pins the module whatever go.mod asks for: a version bump there would otherwise
  // build silently against the old, patched copy.
  const required = new RegExp(`^\\s*(?:require\\s+)?${set.module.replace(/\./g, '\\.')}\\s+(\\S+)`, 'm').exec(
    fs.readFileSync(path.join(programDir, 'go.mod'), 'utf8'),
  )?.[1];
  if (required !== set.version)
    throw new Error(
      `the ${set.module} patches are for ${set.version}, but go.mod requires ${required ?? 'no version'}`,
    );
  const download = JSON.parse(
    await run('go', ['mod', 'download', '-json', `${set.module}@${set.version}`], programDir),
  ) as { Dir?: string; Error?: string };
  if (!download.Dir)
    throw new Error(`go mod download ${set.module}@${set.version}: ${download.Error ?? 'no Dir'}`);

  fs.cpSync(download.Dir, source, { recursive: true });
  makeWritable(source);
  for (const file of patchFiles(set)) {
    try {
      // git apply refuses (changing nothing) when any hunk fails. The copy lies inside our checkout, where
      // git would apply paths relative to the repository and skip them all; the ceiling stops it looking.
      await run('git', ['apply', '--whitespace=nowarn', file], source, {
        ...process.env,
        GIT_CEILING_DIRECTORIES: path.dirname(source),
      });
    } catch (err) {
      throw new Error(
        `the ${set.module} patch ${path.basename(file)} no longer applies to ${set.version}:\n` +
          (err instanceof Error ? err.message : String(err)),
      );
    }
  }
}
