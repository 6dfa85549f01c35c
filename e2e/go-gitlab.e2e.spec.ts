import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runClient } from './e2e.helpers';

/**
 * go-gitlab 0.73.1 against the running stack. The program in clients/go-gitlab/ is built once into
 * .cache/bin/ (again only when its sources are newer); the first build fetches the module through the Go
 * module proxy, so the build gets a long timeout of its own. Each test runs one scenario of the program,
 * which creates the users, groups and projects it needs.
 */
const REPO = join(__dirname, '..');
const SOURCE_DIR = join(__dirname, 'clients', 'go-gitlab');
const BINARY = join(REPO, '.cache', 'bin', 'go-gitlab-e2e');

function goTool(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'go'))) return join(dir, 'go');
  }
  return '/usr/local/go/bin/go';
}

function sources(): string[] {
  return readdirSync(SOURCE_DIR)
    .filter((name) => name.endsWith('.go') || name === 'go.mod' || name === 'go.sum')
    .map((name) => join(SOURCE_DIR, name));
}

/** Builds the program unless the binary is newer than every source; returns the build's complaint, if any. */
function buildClient(): string | null {
  const newest = Math.max(...sources().map((file) => statSync(file).mtimeMs));
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

describe('identity catalogue and discussions with go-gitlab', () => {
  beforeAll(() => {
    const buildError = buildClient();
    if (buildError) throw new Error(buildError);
  }, 240_000);

  it.each([
    [
      'When go-gitlab makes its unauthenticated first contact on /api/v4/, then the answer is JSON, not a 5xx',
      'first contact',
    ],
    [
      'When go-gitlab reads the current user with the root token, then it is the administrator root with id 1',
      'auth',
    ],
    [
      'When go-gitlab creates a user and a personal access token, then the token authenticates as that user',
      'user+token',
    ],
    [
      'When go-gitlab creates a group, a subgroup and a project, then the project resolves by its escaped full path',
      'groups+projects by path',
    ],
    [
      'When go-gitlab adds, edits and reads a group member, then they read the subgroup project and a second add is 409',
      'members',
    ],
    [
      'When go-gitlab searches projects 2 per page, then X-Next-Page and the X-Total headers lead through all five once',
      'pagination',
    ],
    [
      'When go-gitlab stars, unstars and deletes a project and removes a member, then the counts and 202 and 204 come back',
      'star+delete',
    ],
    [
      'When go-gitlab filters issues by iids[] and comments, replies, edits and deletes in a thread, then each answer decodes',
      'discussions: issues',
    ],
    [
      'When go-gitlab posts a merge request diff note with "line_range": null, then it is a resolvable DiffNote on its line',
      'discussions: diff note',
    ],
    [
      'When go-gitlab resolves a merge request thread with a JSON body, then every note is resolved by root',
      'discussions: resolve',
    ],
    [
      'When go-gitlab pages through five threads 2 per page, then X-Next-Page leads to all of them in order',
      'discussions: pagination',
    ],
  ])('%s', (_title, scenario) => {
    expect(runClient(BINARY, [scenario])).toEqual({
      status: 0,
      output: { ok: true, checked: [scenario] },
      stderr: '',
    });
  });
});
