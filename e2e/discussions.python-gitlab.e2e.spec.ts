import { join } from 'node:path';
import { runClient } from './e2e.helpers';

/**
 * The discussions service driven by python-gitlab 3.12 (Debian's python3-gitlab, on Debian's interpreter):
 * nested-JSON diff positions, thread resolution with a JSON body, commit threads and Link pagination.
 */
const PYTHON = '/usr/bin/python3';

describe('discussions with python-gitlab', () => {
  it('When python-gitlab comments on issues, merge requests and commits and pages through threads, then every step works', () => {
    expect(runClient(PYTHON, [join(__dirname, 'clients', 'python_gitlab_discussions.py')])).toEqual({
      status: 0,
      output: {
        ok: true,
        checked: [
          'issues',
          'issue notes',
          'issue discussions',
          'iids filter',
          'merge request diff note',
          'resolve',
          'commit discussions',
          'pagination',
        ],
      },
      stderr: '',
    });
  });
});
