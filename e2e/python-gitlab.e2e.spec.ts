import { join } from 'node:path';
import { runClient } from './e2e.helpers';

/**
 * python-gitlab 3.12 against the running stack. Debian's interpreter is used on purpose: the package
 * (python3-gitlab, installed by the project's scripts) lives there, not in a pyenv or virtualenv. Each test
 * runs one scenario of clients/python_gitlab_identity.py, which creates the users, groups and projects it needs.
 */
const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_identity.py');
const LABELS_CLIENT = join(__dirname, 'clients', 'python_gitlab_labels.py');
const MILESTONES_CLIENT = join(__dirname, 'clients', 'python_gitlab_milestones.py');
const BOARDS_CLIENT = join(__dirname, 'clients', 'python_gitlab_boards.py');

describe('identity catalogue with python-gitlab', () => {
  it.each([
    ['When python-gitlab authenticates with the root token, then it is root with id 1', 'auth'],
    [
      'When python-gitlab creates a user and a personal access token, then the token authenticates as that user',
      'user+token',
    ],
    [
      'When python-gitlab creates a group, a subgroup and a project, then the project resolves by its full path',
      'groups+projects by path',
    ],
    [
      'When python-gitlab adds a group member and raises their level, then they read the subgroup project and a second add is 409',
      'members',
    ],
    [
      'When python-gitlab lists owned groups and searches projects 2 per page, then it follows Link rel="next" to all five',
      'pagination',
    ],
    [
      'When python-gitlab stars, unstars and deletes a project and removes a member, then the statuses are accepted',
      'star+delete',
    ],
  ])('%s', (_title, scenario) => {
    expect(runClient(PYTHON, [CLIENT, scenario])).toEqual({
      status: 0,
      output: { ok: true, checked: [scenario] },
      stderr: '',
    });
  });
});

describe('project labels with python-gitlab', () => {
  it.each([
    [
      'When python-gitlab creates, gets, saves, lists and deletes project labels, then titles with ": " and spaces work',
      'crud',
    ],
    [
      'When python-gitlab subscribes to a project label and promotes it, then 201, 304 and a group label',
      'subscribe+promote',
    ],
  ])('%s', (_title, scenario) => {
    expect(runClient(PYTHON, [LABELS_CLIENT, scenario])).toEqual({
      status: 0,
      output: { ok: true, checked: [scenario] },
      stderr: '',
    });
  });
});

describe('project milestones with python-gitlab', () => {
  it.each([
    [
      'When python-gitlab creates, gets, saves, closes, lists and deletes project milestones, then iids are per project and a taken title is 400',
      'crud',
    ],
    [
      "When python-gitlab promotes a project milestone, then the group has it and the project lists it only with its parents'",
      'promote',
    ],
    [
      'When python-gitlab opens an issue on a project milestone, then milestone.issues() lists it and merge_requests() is empty',
      'issues',
    ],
  ])('%s', (_title, scenario) => {
    expect(runClient(PYTHON, [MILESTONES_CLIENT, scenario])).toEqual({
      status: 0,
      output: { ok: true, checked: [scenario] },
      stderr: '',
    });
  });
});

describe('issue boards with python-gitlab', () => {
  it.each([
    [
      "When python-gitlab creates project boards with lists of the project's and the group's labels, moves and deletes them, then GitLab's answers come back",
      'project boards',
    ],
    [
      'When python-gitlab creates a group board with a label list, then it reads it back and deletes it',
      'group boards',
    ],
  ])('%s', (_title, scenario) => {
    expect(runClient(PYTHON, [BOARDS_CLIENT, scenario])).toEqual({
      status: 0,
      output: { ok: true, checked: [scenario] },
      stderr: '',
    });
  });
});
