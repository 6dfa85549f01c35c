import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { gatewayUrl, rootToken } from './e2e.helpers';

/**
 * python-gitlab 3.12 against the running stack. Debian's interpreter is used on purpose: the package
 * (python3-gitlab, installed by the project's scripts) lives there, not in a pyenv or virtualenv.
 */
const PYTHON = '/usr/bin/python3';

describe('identity catalogue with python-gitlab', () => {
  it('When python-gitlab creates users, groups, projects and members and pages through lists, then every step works', () => {
    const run = spawnSync(PYTHON, [join(__dirname, 'clients', 'python_gitlab_identity.py')], {
      env: { ...process.env, GL_URL: gatewayUrl(), GL_TOKEN: rootToken() },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const lastLine = run.stdout.trim().split('\n').pop() ?? '';
    let output: unknown = lastLine;
    try {
      output = JSON.parse(lastLine);
    } catch {
      // not JSON: keep the raw line so the failure shows it
    }
    expect({ status: run.status, output, stderr: run.stderr.slice(-2000) }).toEqual({
      status: 0,
      output: {
        ok: true,
        checked: ['auth', 'user+token', 'groups+projects by path', 'members', 'pagination', 'star+delete'],
      },
      stderr: '',
    });
  });
});
