import { join } from 'node:path';
import { runClient } from './e2e.helpers';

/**
 * python-gitlab 3.12 against the running stack. Debian's interpreter is used on purpose: the package
 * (python3-gitlab, installed by the project's scripts) lives there, not in a pyenv or virtualenv.
 */
const PYTHON = '/usr/bin/python3';

describe('identity catalogue with python-gitlab', () => {
  it('When python-gitlab creates users, groups, projects and members and pages through lists, then every step works', () => {
    expect(runClient(PYTHON, [join(__dirname, 'clients', 'python_gitlab_identity.py')])).toEqual({
      status: 0,
      output: {
        ok: true,
        checked: ['auth', 'user+token', 'groups+projects by path', 'members', 'pagination', 'star+delete'],
      },
      stderr: '',
    });
  });
});
