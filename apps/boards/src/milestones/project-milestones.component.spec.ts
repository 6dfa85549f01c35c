import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  milestoneEntity,
  projectMilestoneDefinedData,
  projectMilestoneRemovedData,
  projectMilestoneEntity,
  type NamespaceContext,
} from '@gl/contracts';
import { GUEST, REPORTER, STRANGER, namespaceFactory, useHarness } from '@gl/testing';
import { projectInGroupOf, startBoardsHarness } from '../testing/boards.harness';

const listed = z.array(z.union([projectMilestoneEntity, milestoneEntity]));
const namespaces = namespaceFactory({ firstId: 80_000 });
const { projectNamespace } = namespaces;
const projectInGroup = () => projectInGroupOf(namespaces);

describe('Project milestones API', () => {
  const h = useHarness(startBoardsHarness);
  const path = (ns: NamespaceContext) => `/projects/${ns.id}/milestones`;

  async function create(ns: NamespaceContext, json: Record<string, unknown>) {
    const res = await h.call('POST', path(ns), { ns, json });
    expect(res.status).toBe(201);
    return projectMilestoneEntity.parse(res.body);
  }
  /** What `project_milestone.removed` said of these milestones. */
  async function removals(...ids: number[]) {
    return (await h.events())
      .filter((e) => e.type === DOMAIN_EVENT_TYPES.boards.projectMilestoneRemoved)
      .map((e) => projectMilestoneRemovedData.parse(e.data))
      .filter((d) => ids.includes(d.milestoneId));
  }
  async function list(ns: NamespaceContext, query: Record<string, string> = {}) {
    const res = await h.call('GET', path(ns), { ns, query });
    expect(res.status).toBe(200);
    return { res, titles: listed.parse(res.body).map((m) => m.title) };
  }

  it('When a reporter creates a milestone, then 201 with project_id, iids per project, and a guest reads it', async () => {
    const { project } = projectInGroup();
    const other = projectInGroup().project;
    const res = await h.call('POST', path(project), {
      ns: project,
      as: REPORTER,
      json: { title: 'v1', description: 'First', due_date: '2026-03-01', start_date: '2026-02-01' },
    });
    expect(res.status).toBe(201);
    const m = projectMilestoneEntity.parse(res.body);
    expect(m).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: 'v1',
      description: 'First',
      state: 'active',
      due_date: '2026-03-01',
      start_date: '2026-02-01',
      web_url: `${project.webUrl}/-/milestones/1`,
    });
    expect((await create(project, { title: 'v2' })).iid).toBe(2);
    expect((await create(other, { title: 'v1' })).iid).toBe(1);
    const read = await h.call('GET', `${path(project)}/${m.id}`, { ns: project, as: GUEST });
    expect(projectMilestoneEntity.parse(read.body).id).toBe(m.id);
    // By id, and only the project's own: another project's milestone is not found through this one.
    const elsewhere = await h.call('GET', `${path(other)}/${m.id}`, { ns: other });
    expect(elsewhere).toMatchObject({ status: 404, body: { message: '404 Milestone Not Found' } });
  });

  it('When milestones are listed, then by due date (undated last) and title, filtered by iids, state, title, search and dates, paginated', async () => {
    const { project } = projectInGroup();
    const late = await create(project, { title: 'b-late', due_date: '2026-05-01' });
    await create(project, { title: 'c-none', description: 'Needs a decision' });
    await create(project, { title: 'a-none' });
    const soon = await create(project, { title: 'z-soon', due_date: '2026-01-01' });
    expect((await list(project)).titles).toEqual(['z-soon', 'b-late', 'a-none', 'c-none']);
    const iids = await list(project, { 'iids[]': String(late.iid) });
    expect(iids.titles).toEqual(['b-late']);
    expect((await list(project, { iids: `${late.iid},${soon.iid}` })).titles).toEqual(['z-soon', 'b-late']);
    expect((await list(project, { title: 'a-none' })).titles).toEqual(['a-none']);
    expect((await list(project, { search: 'DECISION' })).titles).toEqual(['c-none']);
    expect((await list(project, { search: 'none' })).titles).toEqual(['a-none', 'c-none']);
    await h.call('PUT', `${path(project)}/${late.id}`, { ns: project, json: { state_event: 'close' } });
    expect((await list(project, { state: 'closed' })).titles).toEqual(['b-late']);
    expect((await list(project, { state: 'active' })).titles).toEqual(['z-soon', 'a-none', 'c-none']);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(project, { updated_after: future })).titles).toEqual([]);
    expect((await list(project, { updated_before: future })).titles).toHaveLength(4);
    const second = await list(project, { per_page: '3', page: '2' });
    expect(second.titles).toEqual(['c-none']);
    expect(second.res.headers.get('x-total')).toBe('4');
    expect(second.res.headers.get('x-prev-page')).toBe('1');
    const bad = await h.call('GET', path(project), { ns: project, query: { state: 'open' } });
    expect(bad).toMatchObject({ status: 400, body: { error: 'state does not have a valid value' } });
  });

  it("When include_ancestors is asked, then the groups' milestones come too, with their group_id", async () => {
    const { group, project } = projectInGroup();
    const res = await h.call('POST', `/groups/${group.id}/milestones`, {
      ns: group,
      json: { title: 'group-m', due_date: '2026-02-01' },
    });
    const theirs = milestoneEntity.parse(res.body);
    await create(project, { title: 'own', due_date: '2026-03-01' });
    await create(project, { title: 'early', due_date: '2026-01-01' });
    expect((await list(project)).titles).toEqual(['early', 'own']);
    const all = await list(project, { include_ancestors: 'true' });
    expect(all.titles).toEqual(['early', 'group-m', 'own']);
    expect(listed.parse(all.res.body)[1]).toMatchObject({
      id: theirs.id,
      group_id: group.id,
      web_url: `http://localhost/groups/${group.path}/-/milestones/${theirs.iid}`,
    });
    expect((await list(project, { include_parent_milestones: 'true' })).titles).toHaveLength(3);
    const page = await list(project, { include_ancestors: 'true', per_page: '1', page: '2' });
    expect(page.titles).toEqual(['group-m']);
    expect(page.res.headers.get('x-total')).toBe('3');
    const both = await h.call('GET', path(project), {
      ns: project,
      query: { include_ancestors: 'true', include_parent_milestones: 'true' },
    });
    expect(both).toMatchObject({
      status: 400,
      body: { error: 'include_ancestors, include_parent_milestones are mutually exclusive' },
    });
  });

  it("When a title is the project's or its group's, or the dates are reversed, then GitLab's 400 messages", async () => {
    const { group, project } = projectInGroup();
    await h.call('POST', `/groups/${group.id}/milestones`, { ns: group, json: { title: 'shared' } });
    const mine = await create(project, { title: 'mine' });
    for (const title of ['mine', 'shared']) {
      const res = await h.call('POST', path(project), { ns: project, json: { title } });
      expect(res).toMatchObject({
        status: 400,
        body: {
          message:
            'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
        },
      });
    }
    const renamed = await h.call('PUT', `${path(project)}/${mine.id}`, {
      ns: project,
      json: { title: 'shared' },
    });
    expect(renamed).toMatchObject({
      status: 400,
      body: {
        message:
          'Failed to update milestone {:title=>["already being used for another group or project milestone."]}',
      },
    });
    const dates = await h.call('POST', path(project), {
      ns: project,
      json: { title: 'x', start_date: '2026-02-01', due_date: '2026-01-01' },
    });
    expect(dates).toMatchObject({
      status: 400,
      body: { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
    });
    const missing = await h.call('POST', path(project), { ns: project, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    const none = await h.call('PUT', `${path(project)}/${mine.id}`, { ns: project, json: {} });
    expect(none).toMatchObject({
      status: 400,
      body: {
        error:
          'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided',
      },
    });
  });

  it('When a milestone is closed and activated, then its state follows and each write is published at the next revision', async () => {
    const { project } = projectInGroup();
    const m = await create(project, { title: 'v1' });
    const p = `${path(project)}/${m.id}`;
    const closed = await h.call('PUT', p, { ns: project, as: REPORTER, json: { state_event: 'close' } });
    expect(projectMilestoneEntity.parse(closed.body).state).toBe('closed');
    const open = await h.call('PUT', p, { ns: project, json: { state_event: 'activate', description: 'd' } });
    expect(projectMilestoneEntity.parse(open.body)).toMatchObject({ state: 'active', description: 'd' });
    const { projectMilestoneDefined, milestoneOpened, milestoneClosed, milestoneReopened } =
      DOMAIN_EVENT_TYPES.boards;
    const events = (await h.events()).filter((e) => e.projectId === project.id);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([milestoneOpened, milestoneClosed, milestoneReopened]),
    );
    const defined = events
      .filter((e) => e.type === projectMilestoneDefined)
      .map((e) => projectMilestoneDefinedData.parse(e.data))
      .sort((a, b) => a.revision - b.revision);
    expect(defined.map((d) => [d.revision, d.state, d.projectId])).toEqual([
      [1, 'active', project.id],
      [2, 'closed', project.id],
      [3, 'active', project.id],
    ]);
  });

  it('When a guest writes, a stranger reads a private project, nobody is signed in or milestones are off, then 403, 404, 401 and 403', async () => {
    const { project } = projectInGroup();
    const m = await create(project, { title: 'v1' });
    const p = path(project);
    for (const [method, at] of [
      ['POST', p],
      ['PUT', `${p}/${m.id}`],
      ['DELETE', `${p}/${m.id}`],
      ['POST', `${p}/${m.id}/promote`],
    ] as const) {
      const res = await h.call(method, at, { ns: project, as: GUEST, json: { title: 'g' } });
      expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    const hidden = await h.call('GET', `${p}/${m.id}`, { ns: project, as: STRANGER });
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await h.call('GET', p, { ns: project, as: null })).status).toBe(401);
    expect((await h.call('POST', p, { ns: project, as: null, json: { title: 'x' } })).status).toBe(401);
    const off = {
      ...project,
      features: { issues: 'disabled', merge_requests: 'disabled' },
    } as NamespaceContext;
    expect((await h.call('GET', p, { ns: off })).status).toBe(403);
    expect((await h.call('POST', p, { ns: off, json: { title: 'x' } })).status).toBe(403);
  });

  it('When a milestone is deleted, then 204 and it is gone; an unknown one is 404', async () => {
    const { project } = projectInGroup();
    const m = await create(project, { title: 'v1' });
    const gone = await h.call('DELETE', `${path(project)}/${m.id}`, { ns: project, as: REPORTER });
    expect(gone.status).toBe(204);
    expect((await h.call('GET', `${path(project)}/${m.id}`, { ns: project })).status).toBe(404);
    const again = await h.call('DELETE', `${path(project)}/${m.id}`, { ns: project });
    expect(again).toMatchObject({ status: 404, body: { message: '404 Milestone Not Found' } });
    expect((await create(project, { title: 'v1' })).iid).toBe(2);
    expect(await removals(m.id)).toEqual([
      { milestoneId: m.id, projectId: project.id, iid: 1, title: 'v1', mergedInto: null },
    ]);
  });

  it('When a Reporter of the project alone (no member of its group) promotes a milestone, then 403 and it stays', async () => {
    // lib/api/project_milestones.rb: `authorize! :admin_milestone, user_project.group`.
    const { group, project } = projectInGroup();
    const m = await create(project, { title: 'local' });
    const res = await h.call('POST', `${path(project)}/${m.id}/promote`, {
      ns: { ...project, groupAccessLevel: 0 },
      as: REPORTER,
    });
    expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const inGroup = await h.call('GET', `/groups/${group.id}/milestones`, { ns: group });
    expect(inGroup.body).toEqual([]);
  });

  it("When a milestone is promoted, then the group gets it and the group's projects' milestones of that title merge into it", async () => {
    const { group, project } = projectInGroup();
    const sibling = projectNamespace({ ancestorGroupIds: [group.id] });
    const elsewhere = projectInGroup().project;
    const m = await create(project, { title: 'rel', description: 'Release', due_date: '2026-06-01' });
    await h.call('PUT', `${path(project)}/${m.id}`, { ns: project, json: { state_event: 'close' } });
    const theirs = await create(sibling, { title: 'rel' });
    const unrelated = await create(elsewhere, { title: 'rel' });
    const res = await h.call('POST', `${path(project)}/${m.id}/promote`, { ns: project, as: REPORTER });
    expect(res).toMatchObject({ status: 200, body: 200 });
    const inGroup = await h.call('GET', `/groups/${group.id}/milestones`, { ns: group });
    expect(z.array(milestoneEntity).parse(inGroup.body)).toEqual([
      expect.objectContaining({
        title: 'rel',
        description: 'Release',
        due_date: '2026-06-01',
        state: 'active',
      }),
    ]);
    expect((await h.call('GET', `${path(project)}/${m.id}`, { ns: project })).status).toBe(404);
    expect((await h.call('GET', `${path(sibling)}/${theirs.id}`, { ns: sibling })).status).toBe(404);
    const kept = await h.call('GET', `${path(elsewhere)}/${unrelated.id}`, { ns: elsewhere });
    expect(kept.status).toBe(200);
    // discussions moves the merged milestones' issues and merge requests to the group milestone.
    const groupMilestone = z.array(milestoneEntity).parse(inGroup.body)[0]!;
    const merged = await removals(m.id, theirs.id, unrelated.id);
    expect(merged.map((d) => [d.milestoneId, d.mergedInto]).sort()).toEqual(
      [
        [m.id, groupMilestone.id],
        [theirs.id, groupMilestone.id],
      ].sort(),
    );
  });

  it('When the group already has the title, or the project has no group, then the promotion is refused', async () => {
    const { group, project } = projectInGroup();
    const m = await create(project, { title: 'solo' });
    // A group milestone of the title made after the project's (the title check runs on creation only).
    await h.call('POST', `/groups/${group.id}/milestones`, { ns: group, json: { title: 'solo' } });
    const res = await h.call('POST', `${path(project)}/${m.id}/promote`, { ns: project });
    expect(res).toMatchObject({
      status: 400,
      body: {
        message: 'Promotion failed - Title already being used for another group or project milestone.',
      },
    });
    expect((await h.call('GET', `${path(project)}/${m.id}`, { ns: project })).status).toBe(200);
    const personal = projectNamespace({ ancestorGroupIds: [] });
    const own = await create(personal, { title: 'mine' });
    const refused = await h.call('POST', `${path(personal)}/${own.id}/promote`, { ns: personal });
    expect(refused).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });
});
