import { join } from 'node:path';
import { api, gitlab, runClient, unique } from './e2e.helpers';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_subscriptions.py');

/** The HTTP status a gitbeaker call failed with (304 is not `ok` for its requester). */
async function failedStatus(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (err) {
    return (err as { cause?: { response?: { status?: number } } }).cause?.response?.status;
  }
  return undefined;
}

/**
 * Subscriptions to issues, merge requests and group labels, reviewers, weights and epic_id through the
 * gateway with @gitbeaker/rest and python-gitlab (lib/api/subscriptions.rb).
 */
describe('subscriptions, reviewers, weight and epic_id with real clients', () => {
  const root = gitlab();
  let groupId: number;
  let projectId: number;

  beforeAll(async () => {
    const path = unique('subs');
    groupId = (await root.Groups.create(path, path, { visibility: 'private' })).id;
    projectId = (await root.Projects.create({ name: 'app', namespaceId: groupId })).id;
  });

  it('When gitbeaker subscribes to an issue and a merge request, then 201 with subscribed, and 304 when nothing changes', async () => {
    const issue = await root.Issues.create(projectId, 'Bug');
    expect((await root.Issues.show(issue.iid, { projectId })).subscribed).toBe(true);
    expect(await failedStatus(root.Issues.subscribe(projectId, issue.iid))).toBe(304);
    expect(await root.Issues.unsubscribe(projectId, issue.iid)).toMatchObject({
      iid: issue.iid,
      subscribed: false,
    });
    expect(await root.Issues.subscribe(projectId, issue.iid)).toMatchObject({ subscribed: true });

    const mr = await root.MergeRequests.create(projectId, 'feature', 'main', 'Feature');
    expect(await root.MergeRequests.unsubscribe(projectId, mr.iid)).toMatchObject({ subscribed: false });
    expect((await root.MergeRequests.show(projectId, mr.iid)).subscribed).toBe(false);
    expect(await failedStatus(root.MergeRequests.unsubscribe(projectId, mr.iid))).toBe(304);
    expect(await root.MergeRequests.subscribe(projectId, mr.iid)).toMatchObject({ subscribed: true });
  });

  it('When a group label is subscribed to by id and by name, then 201 and 304 as GitLab, and gitbeaker reads subscribed', async () => {
    const label = await root.GroupLabels.create(groupId, 'bug', '#FF0000');
    // gitbeaker 43's GroupLabels.subscribe posts to /groups/:id/issues/:label_id/subscribe, a route GitLab
    // does not have either (404): the label routes are called directly.
    expect(await failedStatus(root.GroupLabels.subscribe(groupId, label.id))).toBe(404);
    const post = (path: string) => api(`/groups/${groupId}/labels/${path}`, { method: 'POST' });
    const first = await post(`${label.id}/subscribe`);
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ id: label.id, name: 'bug', subscribed: true });
    expect((await root.GroupLabels.show(groupId, label.id)).subscribed).toBe(true);
    expect((await root.GroupLabels.all(groupId)).map((l) => [l.name, l.subscribed])).toEqual([['bug', true]]);
    const again = await post('bug/subscribe');
    expect(again.status).toBe(304);
    const off = await post('bug/unsubscribe');
    expect(off.status).toBe(201);
    expect(await off.json()).toMatchObject({ subscribed: false });
  });

  it('When subscribing over raw HTTP without a token or to nothing, then 401 and 404 bodies', async () => {
    const issue = await root.Issues.create(projectId, 'Anon');
    const anonymous = await api(`/projects/${projectId}/issues/${issue.iid}/subscribe`, {
      method: 'POST',
      token: null,
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: '401 Unauthorized' });
    const missing = await api(`/projects/${projectId}/issues/99999/subscribe`, { method: 'POST' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 Not found' });
    const label = await api(`/groups/${groupId}/labels/nope/unsubscribe`, { method: 'POST' });
    expect(label.status).toBe(404);
    expect(await label.json()).toEqual({ message: '404 Label Not Found' });
    const mr = await api(`/projects/${projectId}/merge_requests/99999/unsubscribe`, { method: 'POST' });
    expect(mr.status).toBe(404);
    const unchanged = await api(`/projects/${projectId}/issues/${issue.iid}/subscribe`, { method: 'POST' });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
  });

  it('When gitbeaker edits an issue with a weight and an epic, then both show; an unknown epic is 404', async () => {
    const epic = await root.Epics.create(groupId, 'Roadmap');
    const issue = await root.Issues.create(projectId, 'Weighted', { weight: 3 });
    expect(issue.weight).toBe(3);
    const edited = await root.Issues.edit(projectId, issue.iid, { weight: 4, epicId: epic.id });
    expect(edited).toMatchObject({ weight: 4, epic_iid: epic.iid, epic: { id: epic.id, iid: epic.iid } });
    expect(await failedStatus(root.Issues.edit(projectId, issue.iid, { epicId: 999999 }))).toBe(404);
    expect(await root.Issues.edit(projectId, issue.iid, { epicId: 0 })).toMatchObject({ epic_iid: null });
  });

  for (const scenario of ['issue', 'merge request', 'reviewers', 'group label', 'weight and epic']) {
    it(`When python-gitlab runs "${scenario}", then it sees GitLab's answers`, () => {
      expect(runClient(PYTHON, [CLIENT, scenario])).toEqual({
        status: 0,
        output: { ok: true, checked: [scenario] },
        stderr: '',
      });
    });
  }
});
