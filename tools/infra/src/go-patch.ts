import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * A one-line fix to a Go dependency, applied to a copy of the module at build time (the module cache is
 * read-only and shared), which the program then builds against through a `replace` directive.
 */
export interface SourcePatch {
  module: string;
  version: string;
  /** File inside the module. */
  file: string;
  from: string;
  to: string;
  /** Why, for the build log and for whoever removes the patch once upstream has the fix. */
  why: string;
}

/**
 * FerretDB v1.24 (SQLite) creates the unique `_id` index on `_ferretdb_sjson->"_id"` but looks documents up
 * with `_ferretdb_sjson->'$._id'`; SQLite matches index expressions textually, so every find, update and
 * delete by `_id` scanned the whole table (EXPLAIN: `SCAN`; a 3,000-document collection took 18 ms per
 * lookup, and a delete of 10,000 ids by `$in` was quadratic). `'_id'` resolves to the same JSON path and
 * the same expression as the index (EXPLAIN: `SEARCH … USING INDEX`).
 */
export const FERRETDB_ID_INDEX_PATCH: SourcePatch = {
  module: 'github.com/FerretDB/FerretDB',
  version: 'v1.24.2',
  file: 'internal/backends/sqlite/metadata/metadata.go',
  from: `IDColumn = DefaultColumn + "->'$._id'"`,
  to: `IDColumn = DefaultColumn + "->'_id'"`,
  why: 'lookups by _id use the _id index',
};

function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
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
 * Copies the program's module (`programDir`) and the patched dependency under `workDir` and returns the
 * directory to run `go build` in.
 */
export async function preparePatchedBuild(
  programDir: string,
  workDir: string,
  patch: SourcePatch,
): Promise<string> {
  if (fs.existsSync(workDir)) {
    makeWritable(workDir);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const download = JSON.parse(
    await run('go', ['mod', 'download', '-json', `${patch.module}@${patch.version}`], programDir),
  ) as { Dir?: string; Error?: string };
  if (!download.Dir)
    throw new Error(`go mod download ${patch.module}@${patch.version}: ${download.Error ?? 'no Dir'}`);

  const source = path.join(workDir, 'dependency');
  fs.cpSync(download.Dir, source, { recursive: true });
  makeWritable(source);
  const target = path.join(source, patch.file);
  const text = fs.readFileSync(target, 'utf8');
  if (!text.includes(patch.from)) {
    throw new Error(`the ${patch.module} patch (${patch.why}) no longer applies to ${patch.file}`);
  }
  fs.writeFileSync(target, text.replace(patch.from, patch.to));

  const program = path.join(workDir, 'program');
  fs.cpSync(programDir, program, { recursive: true });
  fs.appendFileSync(path.join(program, 'go.mod'), `\nreplace ${patch.module} => ../dependency\n`);
  return program;
}
