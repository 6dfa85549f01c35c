import { join } from 'node:path';
import { api, gitlab, runClient, unique } from './e2e.helpers';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_noteables.py');

/**
 * An issue's participants, closing and related merge requests, its edit and deletion through the gateway:
 * with @gitbeaker/rest, with python-gitlab (clients/python_gitlab_noteables.py), and raw HTTP for the error
 * bodies.
 */
describe('issue extras with real clients', () => {
  const root = gitlab();
  let projectId: number;

  beforeAll(async () => {
    const path = unique('noti');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    projectId = (await root.Projects.create({ name: 'app', namespaceId: group.id })).id;
  });

  it('When gitbeaker asks for participants, closing and related merge requests, then it gets them', async () => {
    const issue = await root.Issues.create(projectId, 'Bug');
    const closing = await root.MergeRequests.create(projectId, 'fix', 'main', 'Fix', {
      description: `Fixes #${issue.iid}`,
    });
    const participants = await root.Issues.allParticipants(projectId, issue.iid);
    expect(participants.map((u) => u.username)).toEqual(['root']);
    const closedBy = await root.Issues.allClosedByMergeRequestst(projectId, issue.iid);
    expect(closedBy.map((mr) => mr.iid)).toEqual([closing.iid]);
    const related = await root.Issues.allRelatedMergeRequests(projectId, issue.iid);
    expect(related.map((mr) => mr.iid)).toEqual([closing.iid]);
  });

  it('When gitbeaker edits with addLabels, discussionLocked and issueType, then the issue shows them', async () => {
    const issue = await root.Issues.create(projectId, 'Edit me', { labels: 'bug' });
    const edited = await root.Issues.edit(projectId, issue.iid, {
      addLabels: 'ui',
      discussionLocked: true,
      issueType: 'incident',
    });
    expect(edited).toMatchObject({ labels: ['bug', 'ui'], discussion_locked: true, issue_type: 'incident' });
  });

  it('When gitbeaker removes an issue, then it is gone (404); a second removal is 404', async () => {
    const issue = await root.Issues.create(projectId, 'Gone');
    await root.Issues.remove(projectId, issue.iid);
    const read = await api(`/projects/${projectId}/issues/${issue.iid}`);
    expect(read.status).toBe(404);
    const again = await api(`/projects/${projectId}/issues/${issue.iid}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: '404 Not found' });
  });

  it('When a non-Owner deletes or nobody signs in, then 403 and 401 with GitLab bodies', async () => {
    const issue = await root.Issues.create(projectId, 'Kept');
    const anonymous = await api(`/projects/${projectId}/issues/${issue.iid}`, {
      method: 'DELETE',
      token: null,
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: '401 Unauthorized' });
    const username = unique('mnt');
    const user = await root.Users.create({
      username,
      name: username,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    await root.ProjectMembers.add(projectId, 40, { userId: user.id });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    const maintainer = await api(`/projects/${projectId}/issues/${issue.iid}`, {
      method: 'DELETE',
      token: token.token,
    });
    expect(maintainer.status).toBe(403);
    expect(await maintainer.json()).toEqual({ message: '403 Forbidden' });
    const empty = await api(`/projects/${projectId}/issues/${issue.iid}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toMatch(
      /at least one parameter must be provided$/,
    );
  });

  it.each([
    [
      'When python-gitlab reads participants, closed_by and related_merge_requests, then they match',
      'issue relations',
    ],
    [
      'When python-gitlab saves discussion_locked, labels and updated_at, then the issue keeps them',
      'issue edit',
    ],
    ['When python-gitlab deletes an issue, then reading it is 404', 'issue delete'],
  ])('%s', (_title, scenario) => {
    expect(runClient(PYTHON, [CLIENT, scenario])).toEqual({
      status: 0,
      output: { ok: true, checked: [scenario] },
      stderr: '',
    });
  });
});
