import { discussionEntity, issueEntity, paramError } from '@gl/contracts';
import { z } from 'zod';
import { GUEST, MAINTAINER, OWNER, REPORTER, useHarness } from '@gl/testing';
import { labelsAfter } from '../noteables/label-changes';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

describe('PUT /projects/:id/issues/:issue_iid with the fields clients send', () => {
  const h = useHarness(startDiscussionsHarness);

  async function issueIn(ns: ReturnType<typeof projectNamespace>, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Issue', ...json } });
    return issueEntity.parse(res.body);
  }

  it('When labels, add_labels and remove_labels are combined, then labels replace and the others add and take away', () => {
    expect(labelsAfter(['a', 'b'], undefined, undefined, undefined)).toBeUndefined();
    expect(labelsAfter(['a', 'b'], undefined, ['c', 'a'], ['b'])).toEqual(['a', 'c']);
    expect(labelsAfter(['a'], ['x', 'y'], ['z'], ['y'])).toEqual(['x', 'z']);
  });

  it('When add_labels, remove_labels, assignee_id and issue_type are sent, then the issue shows them', async () => {
    const ns = projectNamespace();
    const issue = await issueIn(ns, { labels: 'bug,ui' });
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const res = await h.call('PUT', p, {
      ns,
      form: {
        add_labels: 'backend',
        remove_labels: 'ui',
        assignee_id: String(REPORTER.id),
        issue_type: 'incident',
      },
    });
    expect(res.status).toBe(200);
    expect(issueEntity.parse(res.body)).toMatchObject({
      labels: ['backend', 'bug'], // sorted, as IssueBasic shows them
      assignees: [{ id: REPORTER.id }],
      issue_type: 'incident',
      type: 'INCIDENT',
    });
    const cleared = await h.call('PUT', p, { ns, json: { assignee_id: 0 } });
    expect(issueEntity.parse(cleared.body).assignees).toEqual([]);
  });

  it('When a Reporter locks the discussion, then discussion_locked is true with a system note; a Guest author cannot', async () => {
    const ns = projectNamespace();
    const issue = await issueIn(ns);
    expect(issue.discussion_locked).toBeNull();
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const locked = await h.call('PUT', p, { ns, as: REPORTER, json: { discussion_locked: true } });
    expect(issueEntity.parse(locked.body).discussion_locked).toBe(true);
    const unlocked = await h.call('PUT', p, { ns, as: REPORTER, json: { discussion_locked: 'false' } });
    expect(issueEntity.parse(unlocked.body).discussion_locked).toBe(false);
    const threads = z.array(discussionEntity).parse((await h.call('GET', `${p}/discussions`, { ns })).body);
    expect(threads.map((t) => t.notes[0]!.body)).toEqual([
      'locked the discussion in this issue',
      'unlocked the discussion in this issue',
    ]);
    const guestIssue = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      as: GUEST,
      json: { title: 'G' },
    });
    const g = issueEntity.parse(guestIssue.body);
    const guest = await h.call('PUT', `/projects/${ns.id}/issues/${g.iid}`, {
      ns,
      as: GUEST,
      json: { discussion_locked: true, title: 'G2' },
    });
    expect(guest.status).toBe(200);
    expect(issueEntity.parse(guest.body)).toMatchObject({ title: 'G2', discussion_locked: null });
  });

  it('When updated_at is sent, then the Owner sets it; a Maintainer is ignored; a bad one is 400', async () => {
    const ns = projectNamespace();
    const issue = await issueIn(ns);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const owner = await h.call('PUT', p, {
      ns,
      as: OWNER,
      json: { title: 'Old', updated_at: '2020-01-02T03:04:05Z' },
    });
    expect(issueEntity.parse(owner.body).updated_at).toBe('2020-01-02T03:04:05.000Z');
    const maintainer = await h.call('PUT', p, {
      ns,
      as: MAINTAINER,
      json: { title: 'New', updated_at: '2020-01-02T03:04:05Z' },
    });
    expect(issueEntity.parse(maintainer.body).updated_at).not.toBe('2020-01-02T03:04:05.000Z');
    const bad = await h.call('PUT', p, { ns, json: { updated_at: 'soon' } });
    expect(bad.status).toBe(400);
    expect(paramError.parse(bad.body)).toEqual({ error: 'updated_at is invalid' });
  });

  it('When nothing to change is sent, then 400 naming the parameters, as Grape at_least_one_of does', async () => {
    const ns = projectNamespace();
    const issue = await issueIn(ns);
    const res = await h.call('PUT', `/projects/${ns.id}/issues/${issue.iid}`, { ns, json: {} });
    expect(res.status).toBe(400);
    expect(paramError.parse(res.body).error).toBe(
      'assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, ' +
        'add_labels, remove_labels, milestone_id, state_event, title, issue_type, weight, epic_id, epic_iid are missing, ' +
        'at least one parameter must be provided',
    );
  });
});
