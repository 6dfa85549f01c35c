import { z } from 'zod';
import {
  EVENT_TYPES,
  epicEntity,
  epicIssueEntity,
  epicIssueLinkEntity,
  issueEntity,
  messageError,
} from '@gl/contracts';
import { GUEST, REPORTER, groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from './testing/discussions.harness';

const ID = EVENT_TYPES.identity;

describe('Epic issues', () => {
  const h = useHarness(startDiscussionsHarness);

  async function world() {
    const g = groupNamespace({ visibility: 'private' });
    await h.deliver(ID.groupCreated, groupEventFields(g.id, { visibility: 'private', ancestorGroupIds: [] }));
    const ns = projectNamespace({ visibility: 'private', ancestorGroupIds: [g.id], fullPath: `g/p${g.id}` });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(ns.id, { visibility: 'private', ancestorGroupIds: [g.id], fullPath: ns.fullPath }),
    );
    const epic = epicEntity.parse(
      (await h.call('POST', `/groups/${g.id}/epics`, { ns: g, json: { title: 'E' } })).body,
    );
    const issue = async (json: Record<string, unknown> = {}) =>
      issueEntity.parse(
        (await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'I', ...json } })).body,
      );
    return { g, ns, epic, issue };
  }

  it('When issues are added, listed and removed, then the epic shows them in order; a second add is 409', async () => {
    const { g, epic, issue } = await world();
    const a = await issue();
    const b = await issue();
    const base = `/groups/${g.id}/epics/${epic.iid}/issues`;
    const added = await h.call('POST', `${base}/${a.id}`, { ns: g, as: REPORTER });
    expect(added.status).toBe(201);
    const link = epicIssueLinkEntity.parse(added.body);
    expect(link).toMatchObject({ epic: { id: epic.id }, issue: { id: a.id }, relative_position: 0 });
    await h.call('POST', `${base}/${b.id}`, { ns: g });
    const again = await h.call('POST', `${base}/${a.id}`, { ns: g });
    expect(again.status).toBe(409);
    expect(messageError.parse(again.body)).toEqual({ message: 'Issue(s) already assigned' });
    const list = z.array(epicIssueEntity).parse((await h.call('GET', base, { ns: g, as: GUEST })).body);
    expect(list.map((i) => [i.id, i.epic_issue_id])).toEqual([
      [a.id, link.id],
      [b.id, expect.any(Number)],
    ]);
    const removed = await h.call('DELETE', `${base}/${link.id}`, { ns: g });
    expect(removed.status).toBe(200);
    expect(epicIssueLinkEntity.parse(removed.body).issue.id).toBe(a.id);
    const left = z.array(epicIssueEntity).parse((await h.call('GET', base, { ns: g })).body);
    expect(left.map((i) => i.id)).toEqual([b.id]);
  });

  it('When the caller or the issue is wrong, then 403, 404 and GitLab messages; a Guest cannot see a confidential one', async () => {
    const { g, epic, issue } = await world();
    const secret = await issue({ confidential: true });
    const base = `/groups/${g.id}/epics/${epic.iid}/issues`;
    expect((await h.call('POST', `${base}/${secret.id}`, { ns: g, as: GUEST })).status).toBe(403);
    expect((await h.call('POST', `${base}/${secret.id}`, { ns: g })).status).toBe(201);
    expect(z.array(epicIssueEntity).parse((await h.call('GET', base, { ns: g, as: GUEST })).body)).toEqual(
      [],
    );
    const missing = await h.call('POST', `${base}/99999999`, { ns: g });
    expect(missing.status).toBe(404);
    const elsewhere = await world();
    const foreign = await elsewhere.issue();
    const outside = await h.call('POST', `${base}/${foreign.id}`, { ns: g });
    expect(outside.status).toBe(404);
    expect(messageError.parse(outside.body)).toEqual({
      message: 'No matching issue found. Make sure that you are adding a valid issue URL.',
    });
    expect((await h.call('GET', `/groups/${g.id}/epics/999/issues`, { ns: g })).status).toBe(403);
    expect((await h.call('DELETE', `${base}/99999999`, { ns: g })).status).toBe(404);
  });
});
