import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  issuableUpdatedData,
  issueEntity,
  mergeRequestEntity,
  type EventEnvelope,
} from '@gl/contracts';
import { DEVELOPER, OWNER, REPORTER, signedContextHeader, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

describe('issue.updated and merge_request.updated: the hook-relevant fields an update changed', () => {
  const h = useHarness(startDiscussionsHarness);

  async function eventsOf(type: string, projectId: number): Promise<EventEnvelope[]> {
    return (await h.pendingEvents()).filter((e) => e.type === type && e.projectId === projectId);
  }

  it('When an issue update changes fields, then one issue.updated carries each changed field before and after', async () => {
    const ns = projectNamespace();
    const issue = issueEntity.parse(
      (
        await h.call('POST', `/projects/${ns.id}/issues`, {
          ns,
          json: { title: 'Broken', description: 'Old', labels: 'bug,ui', assignee_ids: [DEVELOPER.id] },
        })
      ).body,
    );
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const res = await h.call('PUT', p, {
      ns,
      json: {
        title: 'Fixed',
        description: 'New',
        labels: 'ui,bug', // the same set: no change
        assignee_ids: [REPORTER.id],
        due_date: '2030-01-31',
        confidential: true,
        discussion_locked: true,
      },
    });
    expect(res.status).toBe(200);
    const updated = issueEntity.parse(res.body);
    const [event, ...others] = await eventsOf(EVENTS.issueUpdated, ns.id);
    expect(others).toEqual([]);
    expect(event!.actor).toEqual({ id: OWNER.id, username: OWNER.username, name: OWNER.name });
    expect(issuableUpdatedData.parse(event!.data)).toEqual({
      targetId: issue.id,
      targetIid: issue.iid,
      targetTitle: 'Fixed',
      audience: { confidential: true, authorId: OWNER.id, assigneeIds: [REPORTER.id] },
      changes: {
        title: { previous: 'Broken', current: 'Fixed' },
        description: { previous: 'Old', current: 'New' },
        assigneeIds: { previous: [DEVELOPER.id], current: [REPORTER.id] },
        dueDate: { previous: null, current: '2030-01-31' },
        confidential: { previous: false, current: true },
        discussionLocked: { previous: false, current: true },
        updatedById: { previous: null, current: OWNER.id },
      },
      updatedAt: { previous: issue.updated_at, current: updated.updated_at },
    });
  });

  it('When an update changes only the state or nothing hooks show, then no issue.updated is published', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Same', labels: 'bug' } });
    const p = `/projects/${ns.id}/issues/1`;
    await h.call('PUT', p, { ns, json: { state_event: 'close' } });
    await h.call('PUT', p, { ns, json: { title: 'Same', labels: 'bug' } });
    expect(await eventsOf(EVENTS.issueUpdated, ns.id)).toEqual([]);
    expect(await eventsOf(EVENTS.issueClosed, ns.id)).toHaveLength(1);
    await h.call('PUT', p, { ns, json: { state_event: 'reopen', labels: 'bug,ui' } });
    const [event] = await eventsOf(EVENTS.issueUpdated, ns.id);
    expect(event!.data).toMatchObject({ changes: { labels: { previous: ['bug'], current: ['bug', 'ui'] } } });
    expect(await eventsOf(EVENTS.issueReopened, ns.id)).toHaveLength(1);
  });

  it('When a description is long, then the event carries excerpts of it (EVENT_TEXT_LIMITS)', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Long' } });
    const description = 'word '.repeat(10_000).trim();
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { description } });
    const [event] = await eventsOf(EVENTS.issueUpdated, ns.id);
    const data = issuableUpdatedData.parse(event!.data);
    const limit = EVENT_TEXT_LIMITS.issuableDescription;
    expect(data.changes.description).toEqual({
      previous: null,
      current: `${description.slice(0, limit - 3)}...`,
    });
  });

  it('When a merge request update changes labels and assignees, then merge_request.updated carries them', async () => {
    const ns = projectNamespace();
    const mr = mergeRequestEntity.parse(
      (
        await h.call('POST', `/projects/${ns.id}/merge_requests`, {
          ns,
          json: { source_branch: 'f', target_branch: 'main', title: 'Change' },
        })
      ).body,
    );
    const p = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    await h.call('PUT', p, { ns, json: { labels: 'review', assignee_ids: [DEVELOPER.id] } });
    await h.call('PUT', p, { ns, json: { state_event: 'close' } });
    const events = await eventsOf(EVENTS.mergeRequestUpdated, ns.id);
    expect(events.map((e) => issuableUpdatedData.parse(e.data).changes)).toEqual([
      {
        labels: { previous: [], current: ['review'] },
        assigneeIds: { previous: [], current: [DEVELOPER.id] },
        updatedById: { previous: null, current: OWNER.id },
      },
    ]);
  });

  it('When the same user updates again, then updatedById is not among the changes; when another does, it goes from one to the other', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'One' } });
    const p = `/projects/${ns.id}/issues/1`;
    await h.call('PUT', p, { ns, json: { title: 'Two' } });
    await h.call('PUT', p, { ns, json: { title: 'Three' } });
    // A state change alone sends no issue.updated and changes no updated_by.
    await h.call('PUT', p, { ns, as: DEVELOPER, json: { state_event: 'close' } });
    await h.call('PUT', p, { ns, as: DEVELOPER, json: { title: 'Four' } });
    const changes = (await eventsOf(EVENTS.issueUpdated, ns.id)).map(
      (e) => issuableUpdatedData.parse(e.data).changes.updatedById,
    );
    expect(changes).toEqual([
      { previous: null, current: OWNER.id },
      undefined,
      { previous: OWNER.id, current: DEVELOPER.id },
    ]);
  });

  it('When the hooks service reads an issue or merge request, then it shows updated_by_id; any other caller does not get it', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'One' } });
    await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { source_branch: 'f', target_branch: 'main', title: 'Change' },
    });
    const issue = `/projects/${ns.id}/issues/1`;
    const mr = `/projects/${ns.id}/merge_requests/1`;
    // The context the hooks service signs (apps/hooks/src/payloads/discussions-source.ts).
    const asHooks = {
      ns,
      headers: signedContextHeader({
        principal: OWNER,
        namespace: { ...ns, accessLevel: 50 },
        hookAttributes: true,
      }),
    };
    expect((await h.call('GET', issue, asHooks)).body).toMatchObject({ updated_by_id: null });
    expect((await h.call('GET', mr, asHooks)).body).toMatchObject({ updated_by_id: null });

    await h.call('PUT', issue, { ns, as: DEVELOPER, json: { title: 'Two' } });
    await h.call('PUT', mr, { ns, as: DEVELOPER, json: { title: 'Changed' } });
    expect((await h.call('GET', issue, asHooks)).body).toMatchObject({ updated_by_id: DEVELOPER.id });
    expect((await h.call('GET', mr, asHooks)).body).toMatchObject({ updated_by_id: DEVELOPER.id });
    // Entities::Issue and Entities::MergeRequest have no such field.
    expect((await h.call('GET', issue, { ns })).body).not.toHaveProperty('updated_by_id');
    expect((await h.call('GET', mr, { ns })).body).not.toHaveProperty('updated_by_id');
  });
});
