import { join } from 'node:path';
import { api, eventually, gitlab, runClient, unique } from './e2e.helpers';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_noteables.py');

/**
 * A group milestone's issues and merge requests (served by discussions beside boards' milestone routes)
 * and its dates given as ISO date-times: with @gitbeaker/rest, python-gitlab, and raw HTTP.
 */
describe('group milestone issuables with real clients', () => {
  const root = gitlab();

  it('When gitbeaker creates a milestone with ISO date-times and lists its issues and merge requests, then it gets them', async () => {
    const path = unique('notm');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'app', namespaceId: group.id });
    const milestone = await root.GroupMilestones.create(group.id, 'v1', {
      startDate: '2026-06-01T08:00:00Z',
      dueDate: '2026-06-30T18:00:00Z',
    });
    expect(milestone).toMatchObject({ start_date: '2026-06-01', due_date: '2026-06-30' });
    // Discussions learns of the milestone from boards' event; the issue names it once it has.
    const issue = await eventually(
      async () =>
        (await api(`/projects/${project.id}/issues`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'In v1', milestone_id: milestone.id }),
        }).then((r) => r.json())) as { iid: number; milestone: { title: string | null } | null },
      (created) => created.milestone?.title === 'v1',
    );
    await root.MergeRequests.create(project.id, 'f', 'main', 'MR v1', { milestoneId: milestone.id });
    const issues = await root.GroupMilestones.allAssignedIssues(group.id, milestone.id);
    expect(issues.map((i) => i.iid)).toContain(issue.iid);
    const mrs = await root.GroupMilestones.allAssignedMergeRequests(group.id, milestone.id);
    expect(mrs.map((m) => m.title)).toEqual(['MR v1']);
    const missing = await api(`/groups/${group.id}/milestones/99999999/issues`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 Not found' });
  });

  it('When python-gitlab lists a milestone issues() and merge_requests(), then it gets them', () => {
    expect(runClient(PYTHON, [CLIENT, 'milestone'])).toEqual({
      status: 0,
      output: { ok: true, checked: ['milestone'] },
      stderr: '',
    });
  });
});
