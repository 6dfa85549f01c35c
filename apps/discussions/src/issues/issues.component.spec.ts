import { DOMAIN_EVENT_TYPES, discussionEntity, issueEntity, messageError, paramError } from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, GUEST, OWNER, REPORTER, STRANGER, useHarness } from '@gl/testing';

describe('Project issues', () => {
  const h = useHarness(startDiscussionsHarness);

  it('When issues are opened in two projects, then each project numbers its iids from 1', async () => {
    const a = projectNamespace();
    const b = projectNamespace();
    const first = await h.call('POST', `/projects/${a.id}/issues`, { ns: a, json: { title: 'One' } });
    const second = await h.call('POST', `/projects/${a.id}/issues`, { ns: a, json: { title: 'Two' } });
    const other = await h.call('POST', `/projects/${b.id}/issues`, { ns: b, json: { title: 'Three' } });
    expect(first.status).toBe(201);
    expect([first, second, other].map((r) => issueEntity.parse(r.body).iid)).toEqual([1, 2, 1]);
    const issue = issueEntity.parse(first.body);
    expect(issue).toMatchObject({
      project_id: a.id,
      state: 'opened',
      type: 'ISSUE',
      author: { id: OWNER.id, username: OWNER.username },
      web_url: `${a.webUrl}/-/issues/1`,
      references: { short: '#1', full: `${a.fullPath}#1` },
    });
  });

  it('When an issue is created with labels, milestone and assignees, then it shows them', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      form: { title: 'Labelled', labels: 'bug,ui', milestone_id: '7', 'assignee_ids[]': '3' },
    });
    expect(created.status).toBe(201);
    expect(issueEntity.parse(created.body)).toMatchObject({
      labels: ['bug', 'ui'],
      milestone: { id: 7 },
      assignees: [{ id: 3 }],
    });
  });

  it('When the title is missing, then 400 "title is missing"', async () => {
    const ns = projectNamespace();
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: {} });
    expect(res.status).toBe(400);
    expect(paramError.parse(res.body)).toEqual({ error: 'title is missing' });
  });

  it('When an issue is read, listed, and missing, then 200, paginated 200 and 404 "404 Not found"', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'A' } });
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'B' } });
    const one = await h.call('GET', `/projects/${ns.id}/issues/2`, { ns, as: GUEST });
    expect(issueEntity.parse(one.body).title).toBe('B');
    const list = await h.call('GET', `/projects/${ns.id}/issues?per_page=1`, { ns });
    expect(z.array(issueEntity).parse(list.body)).toHaveLength(1);
    expect(list.headers.get('x-total')).toBe('2');
    const missing = await h.call('GET', `/projects/${ns.id}/issues/99`, { ns });
    expect(missing.status).toBe(404);
    expect(messageError.parse(missing.body)).toEqual({ message: '404 Not found' });
  });

  it('When a private project is read by a non-member, then 404 Project; a public one is readable anonymously', async () => {
    const ns = projectNamespace();
    const res = await h.call('GET', `/projects/${ns.id}/issues`, { ns, as: STRANGER });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
    const pub = projectNamespace({ visibility: 'public' });
    const anon = await h.call('GET', `/projects/${pub.id}/issues`, { ns: pub, as: null });
    expect(anon.status).toBe(200);
    const write = await h.call('POST', `/projects/${pub.id}/issues`, {
      ns: pub,
      as: null,
      json: { title: 'x' },
    });
    expect(write.status).toBe(401);
  });

  it('When an issue is closed and reopened, then system notes "closed" and "reopened" appear as individual notes', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Flaky' } });
    const closed = await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { state_event: 'close' } });
    expect(issueEntity.parse(closed.body)).toMatchObject({ state: 'closed', closed_by: { id: OWNER.id } });
    const reopened = await h.call('PUT', `/projects/${ns.id}/issues/1?state_event=reopen`, { ns });
    expect(issueEntity.parse(reopened.body)).toMatchObject({ state: 'opened', closed_at: null });
    const threads = z
      .array(discussionEntity)
      .parse((await h.call('GET', `/projects/${ns.id}/issues/1/discussions`, { ns })).body);
    expect(
      threads.map((t) => [t.individual_note, t.notes[0]!.body, t.notes[0]!.system, t.notes[0]!.type]),
    ).toEqual([
      [true, 'closed', true, null],
      [true, 'reopened', true, null],
    ]);
    expect(threads[0]!.notes[0]).toMatchObject({
      noteable_type: 'Issue',
      noteable_iid: 1,
      resolvable: false,
    });
    await h.call('POST', `/projects/${ns.id}/issues/1/notes`, { ns, json: { body: 'comment' } });
    const counted = issueEntity.parse((await h.call('GET', `/projects/${ns.id}/issues/1`, { ns })).body);
    expect(counted.user_notes_count).toBe(1);
  });

  it('When the milestone changes, then "changed milestone to %<quoted title>" and "removed milestone"', async () => {
    const ns = projectNamespace();
    await h.instance.subscriptions![1]!.handle({
      id: '6f1f3b52-5a0e-4c1a-9c61-5a1d1d7b0001',
      type: DOMAIN_EVENT_TYPES.boards.milestoneOpened,
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'boards',
      correlationId: null,
      actor: null,
      projectId: null,
      groupId: 10,
      data: { targetId: 4242, targetIid: 1, targetTitle: 'v1' },
    });
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Plan' } });
    const changed = await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { milestone_id: 4242 } });
    expect(issueEntity.parse(changed.body).milestone).toEqual({ id: 4242, iid: 1, title: 'v1' });
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { milestone_id: 0 } });
    const threads = z
      .array(discussionEntity)
      .parse((await h.call('GET', `/projects/${ns.id}/issues/1/discussions`, { ns })).body);
    expect(threads.map((t) => t.notes[0]!.body)).toEqual(['changed milestone to %"v1"', 'removed milestone']);
  });

  it("When a guest edits someone else's issue, then 403; a reporter may", async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, as: DEVELOPER, json: { title: 'Mine' } });
    const guest = await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, as: GUEST, json: { title: 'x' } });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: '403 Forbidden' });
    const reporter = await h.call('PUT', `/projects/${ns.id}/issues/1`, {
      ns,
      as: REPORTER,
      json: { title: 'Ours' },
    });
    expect(issueEntity.parse(reporter.body).title).toBe('Ours');
  });
});
