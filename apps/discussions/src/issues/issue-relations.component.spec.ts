import { mergeRequestEntity, messageError, userSummary } from '@gl/contracts';
import { z } from 'zod';
import { DEVELOPER, GUEST, MAINTAINER, OWNER, REPORTER, STRANGER, useHarness } from '@gl/testing';
import { closedIssueIids } from './issue-relations';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

describe('Issue participants, closing and related merge requests, deletion', () => {
  const h = useHarness(startDiscussionsHarness);

  async function issueIn(ns: ReturnType<typeof projectNamespace>, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Issue', ...json } });
    expect(res.status).toBe(201);
    return res.body as { iid: number; id: number };
  }

  async function mergeRequestIn(
    ns: ReturnType<typeof projectNamespace>,
    source: string,
    description: string,
  ) {
    const res = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { source_branch: source, target_branch: 'main', title: `MR ${source}`, description },
    });
    expect(res.status).toBe(201);
    return mergeRequestEntity.parse(res.body);
  }

  it('When the closing pattern is read, then keywords, lists and other projects are told apart', () => {
    expect([...closedIssueIids('Closes #1, #2 and #3', 'g/p')]).toEqual([1, 2, 3]);
    expect([...closedIssueIids('fixes: g/p#4 and other/p#5', 'g/p')]).toEqual([4]);
    expect([...closedIssueIids('Resolving issue #6', 'g/p')]).toEqual([6]);
    expect([...closedIssueIids('mentions #7', 'g/p')]).toEqual([]);
  });

  it('When people comment, are assigned and mentioned, then participants lists each once, author first', async () => {
    const ns = projectNamespace();
    await h.runtime.connection.collection('users').insertMany([
      { _id: MAINTAINER.id, username: MAINTAINER.username, name: MAINTAINER.name, occurredAt: '2020' },
      { _id: REPORTER.id, username: REPORTER.username, name: REPORTER.name, occurredAt: '2020' },
    ] as never);
    const issue = await issueIn(ns, {
      description: `cc @${MAINTAINER.username}`,
      assignee_ids: [REPORTER.id],
    });
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    await h.call('POST', `${p}/notes`, { ns, as: DEVELOPER, json: { body: 'me too' } });
    await h.call('POST', `${p}/notes`, { ns, as: OWNER, json: { body: 'again' } });
    const res = await h.call('GET', `${p}/participants`, { ns, as: GUEST });
    expect(res.status).toBe(200);
    const users = z.array(userSummary).parse(res.body);
    expect(users.map((u) => u.username)).toEqual(['owner', 'maint', 'dev', 'rep']);
    expect(users[1]).toMatchObject({
      id: MAINTAINER.id,
      state: 'active',
      web_url: 'http://localhost/maint',
    });
    expect(res.headers.get('x-total')).toBe('4');
    const page = await h.call('GET', `${p}/participants?per_page=1&page=2`, { ns });
    expect(
      z
        .array(userSummary)
        .parse(page.body)
        .map((u) => u.username),
    ).toEqual(['maint']);
  });

  it('When merge requests close or mention an issue, then closed_by and related_merge_requests list them by iid', async () => {
    const ns = projectNamespace();
    const issue = await issueIn(ns);
    const other = await issueIn(ns);
    const empty = await h.call('GET', `/projects/${ns.id}/issues/${issue.iid}/related_merge_requests`, {
      ns,
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    const closing = await mergeRequestIn(ns, 'a', `Closes #${issue.iid}`);
    const mentioning = await mergeRequestIn(ns, 'b', `See #${issue.iid}`);
    await mergeRequestIn(ns, 'c', `Closes #${other.iid}`);
    const commented = await mergeRequestIn(ns, 'd', 'nothing');
    await h.call('POST', `/projects/${ns.id}/merge_requests/${commented.iid}/notes`, {
      ns,
      json: { body: `related to ${ns.fullPath}#${issue.iid}` },
    });
    const referenced = await mergeRequestIn(ns, 'e', 'nothing');
    await h.call('POST', `/projects/${ns.id}/issues/${issue.iid}/notes`, {
      ns,
      json: { body: `done in !${referenced.iid}` },
    });
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const closedBy = await h.call('GET', `${p}/closed_by`, { ns, as: REPORTER });
    expect(closedBy.status).toBe(200);
    expect(
      z
        .array(mergeRequestEntity)
        .parse(closedBy.body)
        .map((mr) => mr.iid),
    ).toEqual([closing.iid]);
    const related = await h.call('GET', `${p}/related_merge_requests`, { ns, as: REPORTER });
    expect(
      z
        .array(mergeRequestEntity)
        .parse(related.body)
        .map((mr) => mr.iid),
    ).toEqual([closing.iid, mentioning.iid, commented.iid, referenced.iid]);
    // A Guest of a private project may not read its merge requests: the lists are empty, not refused.
    const guest = await h.call('GET', `${p}/related_merge_requests`, { ns, as: GUEST });
    expect(guest.body).toEqual([]);
    await h.call('PUT', p, { ns, json: { state_event: 'close' } });
    expect((await h.call('GET', `${p}/closed_by`, { ns })).body).toEqual([]);
  });

  it('When the issue is missing or the project hidden, then 404', async () => {
    const ns = projectNamespace();
    for (const tail of ['participants', 'closed_by', 'related_merge_requests']) {
      const missing = await h.call('GET', `/projects/${ns.id}/issues/99/${tail}`, { ns });
      expect(missing.status).toBe(404);
      expect(messageError.parse(missing.body)).toEqual({ message: '404 Not found' });
      const hidden = await h.call('GET', `/projects/${ns.id}/issues/1/${tail}`, { ns, as: STRANGER });
      expect(hidden.status).toBe(404);
    }
    const confidential = await issueIn(ns, { confidential: true });
    const guest = await h.call('GET', `/projects/${ns.id}/issues/${confidential.iid}/participants`, {
      ns,
      as: GUEST,
    });
    expect(guest.status).toBe(404);
  });

  it('When an issue is deleted, then the Owner gets 204 and it is gone; a Maintainer 403; anonymous 401', async () => {
    const ns = projectNamespace();
    const issue = await issueIn(ns);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    await h.call('POST', `${p}/notes`, { ns, json: { body: 'a note' } });
    const maintainer = await h.call('DELETE', p, { ns, as: MAINTAINER });
    expect(maintainer.status).toBe(403);
    expect(messageError.parse(maintainer.body)).toEqual({ message: '403 Forbidden' });
    expect((await h.call('DELETE', p, { ns, as: null })).status).toBe(401);
    const owner = await h.call('DELETE', p, { ns, as: OWNER });
    expect(owner.status).toBe(204);
    expect((await h.call('GET', p, { ns })).status).toBe(404);
    expect((await h.call('GET', `${p}/notes`, { ns })).status).toBe(404);
    const again = await h.call('DELETE', p, { ns, as: OWNER });
    expect(again.status).toBe(404);
    expect(await h.runtime.connection.collection('notes').countDocuments({ noteableId: issue.id })).toBe(0);
  });
});
