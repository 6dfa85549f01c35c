import { join } from 'node:path';
import { api, gitlab, runClient, unique } from './e2e.helpers';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_noteables.py');

/**
 * Epics changed and deleted through the gateway: with @gitbeaker/rest, with python-gitlab
 * (clients/python_gitlab_noteables.py), and raw HTTP for the error bodies.
 */
describe('epics with real clients', () => {
  const root = gitlab();
  let groupId: number;

  beforeAll(async () => {
    const path = unique('note');
    groupId = (await root.Groups.create(path, path, { visibility: 'private' })).id;
  });

  it('When gitbeaker edits an epic, then labels, dates and state follow; remove deletes it', async () => {
    const epic = await root.Epics.create(groupId, 'Epic', { labels: 'a' });
    const edited = await root.Epics.edit(groupId, epic.iid, {
      addLabels: 'b',
      startDateIsFixed: true,
      startDateFixed: '2024-05-01T08:00:00Z',
      stateEvent: 'close',
    });
    expect(edited).toMatchObject({ labels: ['a', 'b'], start_date: '2024-05-01', state: 'closed' });
    await root.Epics.remove(groupId, epic.iid);
    const gone = await api(`/groups/${groupId}/epics/${epic.iid}`);
    expect(gone.status).toBe(403);
    expect(await gone.json()).toEqual({ message: '403 Forbidden' });
  });

  it('When gitbeaker assigns an issue to an epic, lists and removes it, then the epic follows; a second assign is 409', async () => {
    const project = await root.Projects.create({ name: unique('app'), namespaceId: groupId });
    const issue = await root.Issues.create(project.id, 'In the epic');
    const epic = await root.Epics.create(groupId, 'With issues');
    const link = (await root.EpicIssues.assign(groupId, epic.iid, issue.id)) as unknown as { id: number };
    const listed = (await root.EpicIssues.all(groupId, epic.iid)) as unknown as Array<{
      id: number;
      epic_issue_id: number;
    }>;
    expect(listed.map((i) => [i.id, i.epic_issue_id])).toEqual([[issue.id, link.id]]);
    const again = await api(`/groups/${groupId}/epics/${epic.iid}/issues/${issue.id}`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: 'Issue(s) already assigned' });
    await root.EpicIssues.remove(groupId, epic.iid, link.id);
    expect(await root.EpicIssues.all(groupId, epic.iid)).toEqual([]);
  });

  it('When a PUT names nothing or a bad date, then 400 with Grape bodies', async () => {
    const epic = await root.Epics.create(groupId, 'Epic');
    const put = (body: unknown) =>
      api(`/groups/${groupId}/epics/${epic.iid}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const none = await put({});
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toMatch(
      /at least one parameter must be provided$/,
    );
    const bad = await put({ due_date_fixed: 'someday' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'due_date_fixed is invalid' });
  });

  it('When python-gitlab saves an epic with start_date and end_date, then it shows them', () => {
    expect(runClient(PYTHON, [CLIENT, 'epic'])).toEqual({
      status: 0,
      output: { ok: true, checked: ['epic'] },
      stderr: '',
    });
  });
});
