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
import { NO_MATCHING_ISSUE } from './epic-issue-access';
import { epicHintsMigration } from '../migrations/epic-hints';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

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

  it('When an issue is added to an epic, then its answers show the epic; one linked before the hint was kept gets it from the migration', async () => {
    const { g, ns, epic, issue } = await world();
    const linked = await issue();
    const never = await issue();
    expect(
      (await h.call('POST', `/groups/${g.id}/epics/${epic.iid}/issues/${linked.id}`, { ns: g })).status,
    ).toBe(201);
    const shown = async (iid: number) =>
      issueEntity.parse((await h.call('GET', `/projects/${ns.id}/issues/${iid}`, { ns })).body).epic_iid;
    const listed = async () =>
      z
        .array(issueEntity)
        .parse((await h.call('GET', `/projects/${ns.id}/issues`, { ns })).body)
        .map((i) => [i.id, i.epic_iid]);
    expect([await shown(linked.iid), await shown(never.iid)]).toEqual([epic.iid, null]);
    expect(await listed()).toEqual(
      expect.arrayContaining([
        [linked.id, epic.iid],
        [never.id, null],
      ]),
    );

    // As written before `mayHaveEpic` was kept: the answers no longer look for the link until migrated.
    const noteables = h.runtime.connection.collection<{ _id: number }>('noteables');
    await noteables.updateOne({ _id: linked.id }, { $unset: { mayHaveEpic: '' } });
    expect(await shown(linked.iid)).toBeNull();
    await epicHintsMigration(11).up(h.runtime.connection, h.runtime.logger);
    expect(await shown(linked.iid)).toBe(epic.iid);
    expect(await listed()).toEqual(
      expect.arrayContaining([
        [linked.id, epic.iid],
        [never.id, null],
      ]),
    );
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
    // An issue of a private project elsewhere that the caller is no member of: as unknown as a missing id.
    const elsewhere = await world();
    const foreign = await elsewhere.issue();
    const outside = await h.call('POST', `${base}/${foreign.id}`, { ns: g });
    expect(outside).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await h.call('GET', `/groups/${g.id}/epics/999/issues`, { ns: g })).status).toBe(403);
    expect((await h.call('DELETE', `${base}/99999999`, { ns: g })).status).toBe(404);
  });
  describe('issues of projects outside the epic’s group (python-gitlab test_epic_issues)', () => {
    /** A project under another root group (or, with no group, a personal namespace) and one issue of it. */
    async function otherProject(visibility: 'private' | 'public', options: { personal?: boolean } = {}) {
      const other = groupNamespace({ visibility });
      await h.deliver(ID.groupCreated, groupEventFields(other.id, { visibility, ancestorGroupIds: [] }));
      const ancestorGroupIds = options.personal ? [] : [other.id];
      const ns = projectNamespace({ visibility, ancestorGroupIds, fullPath: `o${other.id}/p` });
      await h.deliver(
        ID.projectCreated,
        projectEventFields(ns.id, { visibility, ancestorGroupIds, fullPath: ns.fullPath }),
      );
      const issue = async (json: Record<string, unknown> = {}) =>
        issueEntity.parse(
          (await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'X', ...json } })).body,
        );
      const join = (accessLevel: number) =>
        h.deliver(ID.memberAdded, {
          sourceType: 'project',
          sourceId: ns.id,
          userId: REPORTER.id,
          accessLevel,
          expiresAt: null,
        });
      return { ns, issue, join };
    }

    it('When the caller is a Guest of the issue’s project, then the issue is added, listed and removed', async () => {
      const { g, epic } = await world();
      const other = await otherProject('private');
      await other.join(10);
      const foreign = await other.issue();
      const base = `/groups/${g.id}/epics/${epic.iid}/issues`;
      const added = await h.call('POST', `${base}/${foreign.id}`, { ns: g, as: REPORTER });
      expect(added.status).toBe(201);
      const link = epicIssueLinkEntity.parse(added.body);
      expect(link.issue).toMatchObject({ id: foreign.id, project_id: other.ns.id });
      const list = z.array(epicIssueEntity).parse((await h.call('GET', base, { ns: g, as: REPORTER })).body);
      expect(list.map((i) => [i.id, i.epic_issue_id, i.references.full])).toEqual([
        [foreign.id, link.id, `${other.ns.fullPath}#${foreign.iid}`],
      ]);
      // Group members who cannot read that project do not see it in the epic.
      expect(z.array(epicIssueEntity).parse((await h.call('GET', base, { ns: g, as: GUEST })).body)).toEqual(
        [],
      );
      const again = await h.call('POST', `${base}/${foreign.id}`, { ns: g, as: REPORTER });
      expect(again).toMatchObject({ status: 409, body: { message: 'Issue(s) already assigned' } });
      const removed = await h.call('DELETE', `${base}/${link.id}`, { ns: g, as: REPORTER });
      expect(removed.status).toBe(200);
      expect(z.array(epicIssueEntity).parse((await h.call('GET', base, { ns: g })).body)).toEqual([]);
    });

    it('When the caller cannot see the issue, then 404 as for an unknown one; seen but no member, then 403', async () => {
      const { g, epic } = await world();
      const base = `/groups/${g.id}/epics/${epic.iid}/issues`;
      const hidden = await (await otherProject('private')).issue();
      const unseen = await h.call('POST', `${base}/${hidden.id}`, { ns: g, as: REPORTER });
      expect(unseen).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      const open = await otherProject('public');
      const visible = await open.issue();
      const denied = await h.call('POST', `${base}/${visible.id}`, { ns: g, as: REPORTER });
      expect(denied).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      // A Guest of the project does not read its confidential issues: unknown to them.
      await open.join(10);
      const secret = await open.issue({ confidential: true });
      expect((await h.call('POST', `${base}/${secret.id}`, { ns: g, as: REPORTER })).status).toBe(404);
      expect(z.array(epicIssueEntity).parse((await h.call('GET', base, { ns: g })).body)).toEqual([]);
    });

    it('When the issue’s project has no group or the issue is an incident, then GitLab’s 404 message', async () => {
      const { g, epic } = await world();
      const base = `/groups/${g.id}/epics/${epic.iid}/issues`;
      const personal = await otherProject('private', { personal: true });
      await personal.join(30);
      const mine = await personal.issue();
      const reply = await h.call('POST', `${base}/${mine.id}`, { ns: g, as: REPORTER });
      expect(reply).toMatchObject({ status: 404, body: { message: NO_MATCHING_ISSUE } });
      const grouped = await otherProject('private');
      await grouped.join(30);
      const incident = await grouped.issue({ issue_type: 'incident' });
      const refused = await h.call('POST', `${base}/${incident.id}`, { ns: g, as: REPORTER });
      expect(refused).toMatchObject({ status: 404, body: { message: NO_MATCHING_ISSUE } });
    });
  });
});
