import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runClient } from './e2e.helpers';

/**
 * go-gitlab 0.73.1 against the running stack. The program in clients/go-gitlab/ is built once into
 * .cache/bin/ (again only when its sources are newer); the first build fetches the module through the Go
 * module proxy, so that test gets a long timeout.
 */
const REPO = join(__dirname, '..');
const SOURCE_DIR = join(__dirname, 'clients', 'go-gitlab');
const SOURCES = ['main.go', 'go.mod', 'go.sum'].map((name) => join(SOURCE_DIR, name));
const BINARY = join(REPO, '.cache', 'bin', 'go-gitlab-e2e');

function goTool(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'go'))) return join(dir, 'go');
  }
  return '/usr/local/go/bin/go';
}

/** Builds the program unless the binary is newer than every source; returns the build's complaint, if any. */
function buildClient(): string | null {
  const newest = Math.max(...SOURCES.map((file) => statSync(file).mtimeMs));
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs > newest) return null;
  mkdirSync(join(REPO, '.cache', 'bin'), { recursive: true });
  const partial = `${BINARY}.${process.pid}`;
  const build = spawnSync(goTool(), ['build', '-o', partial, '.'], {
    cwd: SOURCE_DIR,
    // -buildvcs=false: the work tree may have no readable .git, and VCS stamping would then fail the build.
    env: { ...process.env, GOFLAGS: [process.env.GOFLAGS, '-buildvcs=false'].filter(Boolean).join(' ') },
    encoding: 'utf8',
    timeout: 200_000,
  });
  if (build.status !== 0) {
    rmSync(partial, { force: true });
    return `go build exited ${build.status ?? build.signal}: ${build.error?.message ?? ''}${build.stderr}`;
  }
  renameSync(partial, BINARY); // atomic: a concurrent run never executes a half-written binary
  return null;
}

describe('identity catalogue with go-gitlab', () => {
  it('When go-gitlab creates users, groups, projects and members and pages through lists, then every step works', () => {
    const buildError = buildClient();
    expect(buildError).toBeNull();
    expect(runClient(BINARY)).toEqual({
      status: 0,
      output: {
        ok: true,
        checked: [
          'first contact',
          'auth',
          'user+token',
          'groups+projects by path',
          'members',
          'pagination',
          'star+delete',
          'discussions: issues',
          'discussions: diff note',
          'discussions: resolve',
          'discussions: pagination',
        ],
      },
      stderr: '',
    });
  }, 240_000);
});
