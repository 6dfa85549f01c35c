import { join } from 'node:path';
import { runClient } from './e2e.helpers';

/**
 * The discussions service driven by python-gitlab 3.12 (Debian's python3-gitlab, on Debian's interpreter):
 * nested-JSON diff positions, thread resolution with a JSON body, commit threads and Link pagination. Each
 * test runs one scenario of clients/python_gitlab_discussions.py, which creates the project it needs.
 */
const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_discussions.py');

describe('discussions with python-gitlab', () => {
  it.each([
    ['When python-gitlab creates, reads and closes an issue, then it is iid 1 and closed', 'issues'],
    [
      'When python-gitlab comments on a closed issue and edits the comment, then the notes list it beside "closed"',
      'issue notes',
    ],
    [
      'When python-gitlab starts an issue thread, replies, edits and deletes the reply, then the thread follows each step',
      'issue discussions',
    ],
    [
      'When python-gitlab filters issues and merge requests by iids, then only those iids come back',
      'iids filter',
    ],
    [
      'When python-gitlab posts a merge request diff note with a nested-JSON position, then it is a resolvable DiffNote',
      'merge request diff note',
    ],
    [
      'When python-gitlab resolves and unresolves a thread with a JSON body, then every note follows, resolved by root',
      'resolve',
    ],
    [
      'When python-gitlab starts a commit thread and replies, then the commit lists that one thread',
      'commit discussions',
    ],
    [
      'When python-gitlab pages through five threads 2 per page, then it follows Link rel="next" to all, in order',
      'pagination',
    ],
    [
      "When python-gitlab lists a project's events, then each carries title and data (None) and author_username",
      'events',
    ],
    [
      'When python-gitlab links issues, lists them from each side and deletes a link, then GitLab’s link types and notes',
      'issue links',
    ],
    [
      "When python-gitlab reads a merge request's commits and changes, then the feature commit and b.py as a new file",
      'merge request changes',
    ],
    [
      'When python-gitlab reads an issue’s and a merge request’s resource events, then each change in order',
      'resource events',
    ],
  ])('%s', (_title, scenario) => {
    expect(runClient(PYTHON, [CLIENT, scenario])).toEqual({
      status: 0,
      output: { ok: true, checked: [scenario] },
      stderr: '',
    });
  });
});
