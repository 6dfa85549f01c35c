import { z } from 'zod';
import { DOMAIN_EVENT_TYPES, EVENT_TYPES, epicEntity, issueEntity, type EpicEntity } from '@gl/contracts';
import { groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const ID = EVENT_TYPES.identity;
const EVENTS = DOMAIN_EVENT_TYPES.discussions;
const noteBodies = z.array(z.object({ body: z.string(), system: z.boolean() }));

describe('epic_id and the deprecated epic_iid on issue create and update', () => {
  const h = useHarness(startDiscussionsHarness);

  /** A private group (and, with `sub`, a subgroup of it) the project is in, as the gateway announces them. */
  async function tree(options: { sub?: boolean } = {}) {
    const g = groupNamespace({ visibility: 'private', fullPath: 'top', path: 'top' });
    await h.deliver(ID.groupCreated, groupEventFields(g.id, { visibility: 'private', ancestorGroupIds: [] }));
    let parent = g;
    if (options.sub) {
      parent = groupNamespace({ visibility: 'private', fullPath: 'top/sub', path: 'sub' });
      await h.deliver(
        ID.groupCreated,
        groupEventFields(parent.id, { visibility: 'private', ancestorGroupIds: [g.id] }),
      );
    }
    const ancestorGroupIds = options.sub ? [g.id, parent.id] : [g.id];
    const fullPath = options.sub ? 'top/sub/proj' : 'top/proj';
    const ns = projectNamespace({ visibility: 'private', ancestorGroupIds, fullPath, path: 'proj' });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(ns.id, { visibility: 'private', ancestorGroupIds, fullPath }),
    );
    return { g, parent, ns };
  }

  async function epicIn(group: ReturnType<typeof groupNamespace>, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/groups/${group.id}/epics`, {
      ns: group,
      json: { title: 'E', ...json },
    });
    expect(res.status).toBe(201);
    return epicEntity.parse(res.body);
  }

  async function issueNotes(ns: ReturnType<typeof projectNamespace>, iid: number): Promise<string[]> {
    const res = await h.call('GET', `/projects/${ns.id}/issues/${iid}/notes?sort=asc`, { ns });
    return noteBodies
      .parse(res.body)
      .filter((n) => n.system)
      .map((n) => n.body);
  }

  async function epicNotes(group: ReturnType<typeof groupNamespace>, epic: EpicEntity): Promise<string[]> {
    const res = await h.call('GET', `/groups/${group.id}/epics/${epic.id}/notes?sort=asc`, { ns: group });
    return noteBodies
      .parse(res.body)
      .filter((n) => n.system)
      .map((n) => n.body);
  }

  async function issueCount(ns: ReturnType<typeof projectNamespace>): Promise<number> {
    return h.runtime.connection.collection('noteables').countDocuments({ kind: 'Issue', projectId: ns.id });
  }

  it('When an issue is created with epic_id, then it is in the epic, both get their system notes, and issue.opened is published once', async () => {
    const { g, ns } = await tree();
    const epic = await epicIn(g);
    const res = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'In an epic', epic_id: epic.id },
    });
    expect(res.status).toBe(201);
    const issue = issueEntity.parse(res.body);
    expect(issue).toMatchObject({
      epic_iid: epic.iid,
      epic: {
        id: epic.id,
        iid: epic.iid,
        group_id: g.id,
        url: `http://localhost/groups/top/-/epics/${epic.iid}`,
      },
      confidential: false,
    });
    const listed = await h.call('GET', `/groups/${g.id}/epics/${epic.iid}/issues`, { ns: g });
    expect((listed.body as { id: number }[]).map((i) => i.id)).toEqual([issue.id]);
    // EpicIssues::CreateService#create_notes: SystemNoteService.epic_issue and issue_on_epic.
    expect(await epicNotes(g, epic)).toEqual([`added issue proj#${issue.iid}`]);
    expect(await issueNotes(ns, issue.iid)).toEqual([`added to epic &${epic.iid}`]);
    const events = (await h.pendingEvents()).filter((e) => e.projectId === ns.id || e.groupId === g.id);
    expect(events.filter((e) => e.type === EVENTS.issueOpened)).toHaveLength(1);
    // GitLab records no activity for system notes.
    expect(events.filter((e) => e.type === EVENTS.noteCreated)).toEqual([]);
  });

  it('When the epic is of an ancestor group, then the references are full paths; a confidential epic makes the new issue confidential', async () => {
    const { g, ns } = await tree({ sub: true });
    const epic = await epicIn(g, { confidential: true });
    const res = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'Deep', epic_id: epic.id },
    });
    expect(res.status).toBe(201);
    const issue = issueEntity.parse(res.body);
    // EE Issues::BaseService#filter_epic: `params[:confidential] = true` for a new issue of a confidential epic.
    expect(issue).toMatchObject({ epic_iid: epic.iid, confidential: true });
    expect(await epicNotes(g, epic)).toEqual([`added issue top/sub/proj#${issue.iid}`]);
    expect(await issueNotes(ns, issue.iid)).toEqual([`added to epic top&${epic.iid}`]);
  });

  it('When the epic_id of a create is unknown or of another group tree, then 404 and no issue is stored (its iid is not used up)', async () => {
    const { ns } = await tree();
    const { g: other } = await tree();
    const foreign = await epicIn(other);
    for (const epicId of [999999, foreign.id]) {
      const res = await h.call('POST', `/projects/${ns.id}/issues`, {
        ns,
        json: { title: 'X', epic_id: epicId },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Not found' });
    }
    expect(await issueCount(ns)).toBe(0);
    const first = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'First' } });
    expect(issueEntity.parse(first.body).iid).toBe(1);
    expect(
      (await h.pendingEvents()).filter((e) => e.projectId === ns.id && e.type === EVENTS.issueOpened),
    ).toHaveLength(1);
  });

  it('When the tier has no epics, then a create or update naming an epic is 404 and epic_id 0 is accepted as none', async () => {
    const { g, ns } = await tree();
    const epic = await epicIn(g);
    const refused = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      tier: 'free',
      json: { title: 'X', epic_id: epic.id },
    });
    expect(refused.status).toBe(404);
    const byIid = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      tier: 'free',
      json: { title: 'X', epic_iid: epic.iid },
    });
    expect(byIid.status).toBe(404);
    expect(byIid.body).toEqual({ message: '404 Epic Not Found' });
    expect(await issueCount(ns)).toBe(0);
    const none = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      tier: 'free',
      json: { title: 'Y', epic_id: 0 },
    });
    expect(none.status).toBe(201);
    expect(none.body).not.toHaveProperty('epic_iid');
    const p = `/projects/${ns.id}/issues/${issueEntity.parse(none.body).iid}`;
    expect((await h.call('PUT', p, { ns, tier: 'free', json: { epic_iid: epic.iid } })).status).toBe(404);
    expect(issueEntity.parse((await h.call('GET', p, { ns })).body).epic_iid).toBeNull();
  });

  it("When epic_iid is given, then it names an epic of the project's own group: others are 404 Epic Not Found", async () => {
    const { g, parent, ns } = await tree({ sub: true });
    const own = await epicIn(parent, { title: 'Own' });
    const above = await epicIn(g, { title: 'Above' });
    const res = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'I', epic_iid: own.iid },
    });
    expect(res.status).toBe(201);
    expect(issueEntity.parse(res.body)).toMatchObject({
      epic_iid: own.iid,
      epic: { id: own.id, group_id: parent.id },
    });
    expect(await epicNotes(parent, own)).toEqual(['added issue proj#1']);
    expect(await issueNotes(ns, 1)).toEqual([`added to epic &${own.iid}`]);
    // EpicsFinder over the project's group only: an ancestor's epic (by id it would do) is not found by iid.
    expect(above.iid).toBe(own.iid);
    const otherIid = await epicIn(g, { title: 'Second above' });
    for (const iid of [otherIid.iid, 0, 999, -1]) {
      const missing = await h.call('POST', `/projects/${ns.id}/issues`, {
        ns,
        json: { title: 'I', epic_iid: iid },
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Epic Not Found' });
    }
    expect(await issueCount(ns)).toBe(1);
    const invalid = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'I', epic_iid: 'one' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'epic_iid is invalid' });
    // Empty or null is not given.
    const plain = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'J', epic_iid: null },
    });
    expect(issueEntity.parse(plain.body).epic_iid).toBeNull();
  });

  it('When epic_iid is given on PUT, then it alone satisfies at_least_one_of and moves the issue, with the move notes; epic_id 0 takes it out', async () => {
    const { g, ns } = await tree();
    const first = await epicIn(g, { title: 'First' });
    const second = await epicIn(g, { title: 'Second' });
    const created = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'I', epic_id: first.id },
    });
    const issue = issueEntity.parse(created.body);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const moved = await h.call('PUT', p, { ns, json: { epic_iid: second.iid } });
    expect(moved.status).toBe(200);
    expect(issueEntity.parse(moved.body)).toMatchObject({ epic_iid: second.iid, epic: { id: second.id } });
    // SystemNoteService.epic_issue_moved (both epics) and issue_epic_change.
    expect(await epicNotes(g, second)).toEqual([`added issue proj#${issue.iid} from epic &${first.iid}`]);
    expect(await epicNotes(g, first)).toEqual([
      `added issue proj#${issue.iid}`,
      `moved issue proj#${issue.iid} to epic &${second.iid}`,
    ]);
    // Its own epic again changes nothing.
    expect((await h.call('PUT', p, { ns, json: { epic_id: second.id } })).status).toBe(200);
    const out = await h.call('PUT', p, { ns, json: { epic_id: 0 } });
    expect(issueEntity.parse(out.body)).toMatchObject({ epic_iid: null, epic: null });
    expect(await issueNotes(ns, issue.iid)).toEqual([
      `added to epic &${first.iid}`,
      `changed epic to &${second.iid}`,
      `removed from epic &${second.iid}`,
    ]);
    expect((await epicNotes(g, second)).at(-1)).toBe(`removed issue proj#${issue.iid}`);
    // Taking out an issue of no epic writes nothing.
    expect((await h.call('PUT', p, { ns, json: { epic_id: 0 } })).status).toBe(200);
    expect(await issueNotes(ns, issue.iid)).toHaveLength(3);
    // An unknown epic_iid on PUT: the issue is found first, then the epic is not.
    const missing = await h.call('PUT', p, { ns, json: { epic_iid: 999 } });
    expect(missing.body).toEqual({ message: '404 Epic Not Found' });
    expect(
      (await h.call('PUT', `/projects/${ns.id}/issues/999`, { ns, json: { epic_iid: 999 } })).body,
    ).toEqual({
      message: '404 Not found',
    });
  });

  it('When both epic_id and epic_iid are given, then 400 mutually exclusive before anything is looked up or stored', async () => {
    const { g, ns } = await tree();
    const epic = await epicIn(g);
    const both = { epic_id: epic.id, epic_iid: epic.iid };
    const created = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'X', ...both } });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: 'epic_id, epic_iid are mutually exclusive' });
    expect(await issueCount(ns)).toBe(0);
    const updated = await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: both });
    expect(updated.status).toBe(400);
    expect(updated.body).toEqual({ error: 'epic_id, epic_iid are mutually exclusive' });
  });
});
