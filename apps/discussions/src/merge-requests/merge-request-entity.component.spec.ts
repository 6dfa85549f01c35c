import { mergeRequestEntity, messageError, userSummary } from '@gl/contracts';
import { z } from 'zod';
import { DEVELOPER, GUEST, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

describe("Merge requests: GitLab's entity fields and participants", () => {
  const h = useHarness(startDiscussionsHarness);

  async function mergeRequestIn(ns: ReturnType<typeof projectNamespace>, json: Record<string, unknown>) {
    const res = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { source_branch: 'feature', target_branch: 'main', title: 'MR', ...json },
    });
    expect(res.status).toBe(201);
    return mergeRequestEntity.parse(res.body);
  }

  it('When a draft with a task list is opened and later closed, then draft, tasks and detailed_merge_status follow', async () => {
    const ns = projectNamespace();
    const mr = await mergeRequestIn(ns, {
      title: 'Draft: work',
      description: '- [x] one\n- [ ] two\n* [ ] three',
    });
    expect(mr).toMatchObject({
      draft: true,
      work_in_progress: true,
      detailed_merge_status: 'draft_status',
      merge_when_pipeline_succeeds: false,
      has_conflicts: false,
      blocking_discussions_resolved: true,
      task_completion_status: { count: 3, completed_count: 1 },
      source_project_id: ns.id,
      target_project_id: ns.id,
      reference: `!${mr.iid}`,
      assignee: null,
      reviewers: [],
      discussion_locked: null,
    });
    const p = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    const ready = await h.call('PUT', p, { ns, json: { title: 'work', assignee_ids: [DEVELOPER.id] } });
    expect(mergeRequestEntity.parse(ready.body)).toMatchObject({
      draft: false,
      detailed_merge_status: 'mergeable',
      assignee: { id: DEVELOPER.id },
      assignees: [{ id: DEVELOPER.id }],
    });
    const closed = await h.call('PUT', p, { ns, json: { state_event: 'close' } });
    expect(mergeRequestEntity.parse(closed.body).detailed_merge_status).toBe('not_open');
  });

  it('When participants are asked for, then 200 with the author and commenters; 404 unknown; 403 for a Guest of a private project', async () => {
    const ns = projectNamespace();
    const mr = await mergeRequestIn(ns, {});
    const p = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    await h.call('POST', `${p}/notes`, { ns, as: DEVELOPER, json: { body: 'looks good' } });
    const res = await h.call('GET', `${p}/participants`, { ns });
    expect(res.status).toBe(200);
    expect(
      z
        .array(userSummary)
        .parse(res.body)
        .map((u) => u.username),
    ).toEqual(['owner', 'dev']);
    const missing = await h.call('GET', `/projects/${ns.id}/merge_requests/99/participants`, { ns });
    expect(missing.status).toBe(404);
    expect(messageError.parse(missing.body)).toEqual({ message: '404 Not found' });
    const guest = await h.call('GET', `${p}/participants`, { ns, as: GUEST });
    expect(guest.status).toBe(403);
    expect(messageError.parse(guest.body)).toEqual({ message: '403 Forbidden' });
  });
});
