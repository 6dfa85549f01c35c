import { join } from 'node:path';
import { api, gitlab, runClient, unique } from './e2e.helpers';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_noteables.py');

/** Merge requests' entity fields and participants through the gateway with gitbeaker and python-gitlab. */
describe('merge request entity and participants with real clients', () => {
  const root = gitlab();
  let projectId: number;

  beforeAll(async () => {
    const path = unique('notr');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    projectId = (await root.Projects.create({ name: 'app', namespaceId: group.id })).id;
  });

  it('When gitbeaker opens a draft merge request and reads it, then the entity carries GitLab fields; participants lists root', async () => {
    const mr = await root.MergeRequests.create(projectId, 'feature', 'main', 'Draft: feature', {
      description: '- [ ] a\n- [x] b',
    });
    const shown = await root.MergeRequests.show(projectId, mr.iid);
    expect(shown).toMatchObject({
      draft: true,
      detailed_merge_status: 'draft_status',
      merge_when_pipeline_succeeds: false,
      has_conflicts: false,
      blocking_discussions_resolved: true,
      task_completion_status: { count: 2, completed_count: 1 },
      reviewers: [],
    });
    const participants = await root.MergeRequests.allParticipants(projectId, mr.iid);
    expect(participants.map((u) => u.username)).toEqual(['root']);
    const missing = await api(`/projects/${projectId}/merge_requests/9999/participants`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 Not found' });
  });

  it('When python-gitlab reads a merge request and its participants, then it sees the fields', () => {
    expect(runClient(PYTHON, [CLIENT, 'merge request'])).toEqual({
      status: 0,
      output: { ok: true, checked: ['merge request'] },
      stderr: '',
    });
  });
});
