import { z } from 'zod';
import { labelEntity, messageError, type NamespaceContext } from '@gl/contracts';
import { DEVELOPER, GUEST, REPORTER, STRANGER, namespaceFactory, useHarness } from '@gl/testing';
import { projectInGroupOf, startBoardsHarness } from '../testing/boards.harness';

const labels = z.array(labelEntity);
const namespaces = namespaceFactory({ firstId: 70_000 });
const { projectNamespace } = namespaces;
const projectInGroup = (overrides: Partial<NamespaceContext> = {}) => projectInGroupOf(namespaces, overrides);

describe('Project labels API', () => {
  const h = useHarness(startBoardsHarness);

  async function create(ns: NamespaceContext, json: Record<string, unknown>) {
    const res = await h.call('POST', `/projects/${ns.id}/labels`, { ns, json });
    expect(res.status).toBe(201);
    return labelEntity.parse(res.body);
  }

  async function groupLabel(ns: NamespaceContext, name: string) {
    const res = await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name, color: '#00FF00' } });
    expect(res.status).toBe(201);
    return labelEntity.parse(res.body);
  }

  it('When a reporter creates a label with a priority, then 201 with ProjectLabel fields and a guest reads it', async () => {
    const { project } = projectInGroup();
    const res = await h.call('POST', `/projects/${project.id}/labels`, {
      ns: project,
      as: REPORTER,
      json: { name: 'bug', color: '#FF0000', description: 'Broken', priority: 2 },
    });
    expect(res.status).toBe(201);
    expect(labelEntity.parse(res.body)).toMatchObject({
      name: 'bug',
      color: '#FF0000',
      description: 'Broken',
      text_color: '#FFFFFF',
      priority: 2,
      is_project_label: true,
      subscribed: false,
    });
    const read = await h.call('GET', `/projects/${project.id}/labels/bug`, { ns: project, as: GUEST });
    expect(labelEntity.parse(read.body).priority).toBe(2);
  });

  it("When labels are listed, then the group's labels come too (unless include_ancestor_groups=false), by title, paginated and searchable", async () => {
    const { group, project } = projectInGroup();
    await groupLabel(group, 'b-group');
    for (const name of ['c-own', 'a-own']) await create(project, { name, color: '#eeeeee' });
    const p = `/projects/${project.id}/labels`;
    const all = await h.call('GET', p, { ns: project, as: GUEST });
    expect(labels.parse(all.body).map((l) => [l.name, l.is_project_label])).toEqual([
      ['a-own', true],
      ['b-group', false],
      ['c-own', true],
    ]);
    const second = await h.call('GET', p, { ns: project, query: { per_page: '2', page: '2' } });
    expect(labels.parse(second.body).map((l) => l.name)).toEqual(['c-own']);
    expect(second.headers.get('x-total')).toBe('3');
    expect(second.headers.get('x-prev-page')).toBe('1');
    const first = await h.call('GET', p, { ns: project, query: { per_page: '2' } });
    expect(first.headers.get('x-next-page')).toBe('2');
    const own = await h.call('GET', p, { ns: project, query: { include_ancestor_groups: 'false' } });
    expect(labels.parse(own.body).map((l) => l.name)).toEqual(['a-own', 'c-own']);
    const found = await h.call('GET', p, { ns: project, query: { search: 'GROUP', with_counts: 'true' } });
    expect(labels.parse(found.body).map((l) => l.name)).toEqual(['b-group']);
    await h.call('PUT', `${p}/c-own`, { ns: project, json: { description: 'Needs a group decision' } });
    const byDescription = await h.call('GET', p, { ns: project, query: { search: 'decision' } });
    expect(labels.parse(byDescription.body).map((l) => l.name)).toEqual(['c-own']);
  });

  it("When a title is taken in the project or its group, then 409; a bad colour or long title is the model's 400", async () => {
    const { group, project } = projectInGroup();
    await groupLabel(group, 'shared');
    await create(project, { name: 'mine', color: '#000000' });
    for (const name of ['mine', 'shared']) {
      const res = await h.call('POST', `/projects/${project.id}/labels`, {
        ns: project,
        json: { name, color: '#000000' },
      });
      expect(res).toMatchObject({ status: 409, body: { message: 'Label already exists' } });
    }
    const comma = await h.call('POST', `/projects/${project.id}/labels`, {
      ns: project,
      json: { name: 'a,b', color: '#000000' },
    });
    expect(comma).toMatchObject({ status: 400, body: { message: { title: ['is invalid'] } } });
    const missing = await h.call('POST', `/projects/${project.id}/labels`, { ns: project, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'name is missing, color is missing' } });
    const bad = await h.call('POST', `/projects/${project.id}/labels`, {
      ns: project,
      json: { name: 'x'.repeat(256), color: 'nope' },
    });
    expect(bad).toMatchObject({
      status: 400,
      body: {
        message: {
          color: ['must be a valid color code'],
          title: ['is too long (maximum is 255 characters)'],
        },
      },
    });
    // A rename onto another label's title, or onto a title of the project's group.
    const taken = await h.call('PUT', `/projects/${project.id}/labels/mine`, {
      ns: project,
      json: { new_name: 'shared' },
    });
    expect(taken).toMatchObject({
      status: 400,
      body: {
        message: { title: [`already exists at group level for ${group.name}. Please choose another one.`] },
      },
    });
  });

  it('When a guest writes, a stranger reads a private project or nobody is signed in, then 403, 404 and 401', async () => {
    const { project } = projectInGroup();
    await create(project, { name: 'bug', color: '#000' });
    const p = `/projects/${project.id}/labels`;
    const write = await h.call('POST', p, { ns: project, as: GUEST, json: { name: 'g', color: '#000' } });
    expect(write).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    for (const [method, path] of [
      ['PUT', `${p}/bug`],
      ['DELETE', `${p}/bug`],
      ['PUT', `${p}/bug/promote`],
    ] as const) {
      const res = await h.call(method, path, { ns: project, as: GUEST, json: { color: '#111' } });
      expect(res.status).toBe(403);
    }
    const read = await h.call('GET', p, { ns: project, as: STRANGER });
    expect(read).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const one = await h.call('GET', `${p}/bug`, { ns: project, as: STRANGER });
    expect(one.status).toBe(404);
    const anonymous = await h.call('POST', p, { ns: project, as: null, json: { name: 'g', color: '#000' } });
    expect(anonymous.status).toBe(401);
    const unknown = await h.call('GET', `${p}/nope`, { ns: project });
    expect(messageError.parse(unknown.body).message).toBe('404 Label Not Found');
  });

  it('When issues and merge requests are disabled, then no labels are read and none written', async () => {
    const { project } = projectInGroup();
    await create(project, { name: 'bug', color: '#000' });
    const off = {
      ...project,
      features: { issues: 'disabled', merge_requests: 'disabled' },
    } as NamespaceContext;
    const list = await h.call('GET', `/projects/${project.id}/labels`, { ns: off });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect((await h.call('GET', `/projects/${project.id}/labels/bug`, { ns: off })).status).toBe(404);
    const write = await h.call('POST', `/projects/${project.id}/labels`, {
      ns: off,
      json: { name: 'x', color: '#000' },
    });
    expect(write.status).toBe(403);
  });

  it('When a title has colons and spaces, then it is found, updated and deleted by its URL-encoded title', async () => {
    const { project } = projectInGroup();
    const created = await create(project, { name: 'scope::high priority', color: '#123456', priority: 1 });
    const p = `/projects/${project.id}/labels/${encodeURIComponent('scope::high priority')}`;
    expect(p).toContain('scope%3A%3Ahigh%20priority');
    const got = await h.call('GET', p, { ns: project });
    expect(labelEntity.parse(got.body).id).toBe(created.id);
    const updated = await h.call('PUT', p, {
      ns: project,
      as: DEVELOPER,
      json: { color: '#FFFFFF', priority: null },
    });
    expect(labelEntity.parse(updated.body)).toMatchObject({
      color: '#FFFFFF',
      priority: null,
      text_color: '#1F1E24',
    });
    const none = await h.call('PUT', p, { ns: project, json: {} });
    expect(none).toMatchObject({
      status: 400,
      body: {
        error: 'new_name, color, description, priority are missing, at least one parameter must be provided',
      },
    });
    // python-gitlab's ProjectLabel#save: the deprecated PUT with the title in the body.
    const saved = await h.call('PUT', `/projects/${project.id}/labels`, {
      ns: project,
      json: { name: 'scope::high priority', new_name: 'scope::low', priority: 5 },
    });
    expect(labelEntity.parse(saved.body)).toMatchObject({ id: created.id, name: 'scope::low', priority: 5 });
    const gone = await h.call(
      'DELETE',
      `/projects/${project.id}/labels/${encodeURIComponent('scope::low')}`,
      {
        ns: project,
      },
    );
    expect(gone.status).toBe(204);
    expect(
      (await h.call('GET', `/projects/${project.id}/labels/${created.id}`, { ns: project })).status,
    ).toBe(404);
  });

  it("When a group's label is addressed through the project, then it is read and subscribed to but not changed", async () => {
    const { group, project } = projectInGroup();
    const theirs = await groupLabel(group, 'team');
    const p = `/projects/${project.id}/labels`;
    const got = await h.call('GET', `${p}/${theirs.id}`, { ns: project });
    expect(labelEntity.parse(got.body)).toMatchObject({ id: theirs.id, is_project_label: false });
    const own = await h.call('GET', `${p}/${theirs.id}`, {
      ns: project,
      query: { include_ancestor_groups: 'false' },
    });
    expect(own.status).toBe(404);
    expect((await h.call('PUT', `${p}/team`, { ns: project, json: { color: '#000' } })).status).toBe(404);
    expect((await h.call('DELETE', `${p}/${theirs.id}`, { ns: project })).status).toBe(404);
    const on = await h.call('POST', `${p}/team/subscribe`, { ns: project, as: GUEST });
    expect(labelEntity.parse(on.body)).toMatchObject({ id: theirs.id, subscribed: true });
  });

  it('When a member subscribes and unsubscribes, then 201 with subscribed, 304 when nothing changes', async () => {
    const { project } = projectInGroup();
    const label = await create(project, { name: 'bug', color: '#000' });
    const p = `/projects/${project.id}/labels`;
    const on = await h.call('POST', `${p}/${label.id}/subscribe`, { ns: project, as: GUEST });
    expect(on.status).toBe(201);
    expect(labelEntity.parse(on.body)).toMatchObject({
      id: label.id,
      subscribed: true,
      is_project_label: true,
    });
    expect((await h.call('POST', `${p}/bug/subscribe`, { ns: project, as: GUEST })).status).toBe(304);
    const mine = await h.call('GET', `${p}/bug`, { ns: project, as: GUEST });
    expect(labelEntity.parse(mine.body).subscribed).toBe(true);
    const off = await h.call('POST', `${p}/bug/unsubscribe`, { ns: project, as: GUEST });
    expect(labelEntity.parse(off.body).subscribed).toBe(false);
    expect((await h.call('POST', `${p}/bug/unsubscribe`, { ns: project, as: GUEST })).status).toBe(304);
    const anonymous = await h.call('POST', `${p}/bug/subscribe`, { ns: project, as: null });
    expect(anonymous.status).toBe(401);
  });

  it("When a Reporter of the project alone (a Guest of its group) promotes a label, then 403 and the label stays the project's", async () => {
    // lib/api/helpers/label_helpers.rb promote_label: `authorize! :admin_label, parent.group`.
    const { project } = projectInGroup();
    await create(project, { name: 'local', color: '#000' });
    const res = await h.call('PUT', `/projects/${project.id}/labels/local/promote`, {
      ns: { ...project, groupAccessLevel: 10 },
      as: REPORTER,
    });
    expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const still = await h.call('GET', `/projects/${project.id}/labels/local`, { ns: project, as: REPORTER });
    expect(still.body).toMatchObject({ name: 'local', is_project_label: true });
  });

  it("When a label is promoted, then the group gets it and the sibling projects' labels of that title merge into it", async () => {
    const { group, project } = projectInGroup();
    const sibling = projectNamespace({ ancestorGroupIds: [group.id], fullName: `${group.name} / Sibling` });
    const elsewhere = projectInGroup().project;
    const label = await create(project, { name: 'infra', color: '#AA0000', description: 'Ops' });
    const siblings = await create(sibling, { name: 'infra', color: '#00AA00' });
    const unrelated = await create(elsewhere, { name: 'infra', color: '#0000AA' });
    await h.call('POST', `/projects/${sibling.id}/labels/infra/subscribe`, { ns: sibling, as: GUEST });

    const res = await h.call('PUT', `/projects/${project.id}/labels/infra/promote`, {
      ns: project,
      as: REPORTER,
    });
    expect(res.status).toBe(200);
    const promoted = labelEntity.parse(res.body);
    expect(promoted).toMatchObject({
      name: 'infra',
      color: '#AA0000',
      description: 'Ops',
      is_project_label: false,
    });
    expect(promoted.id).not.toBe(label.id);

    const inGroup = await h.call('GET', `/groups/${group.id}/labels/infra`, { ns: group, as: GUEST });
    expect(labelEntity.parse(inGroup.body)).toMatchObject({ id: promoted.id, subscribed: true });
    for (const ns of [project, sibling]) {
      const list = labels.parse((await h.call('GET', `/projects/${ns.id}/labels`, { ns })).body);
      expect(list.map((l) => [l.id, l.is_project_label])).toEqual([[promoted.id, false]]);
    }
    const gone = await h.call('GET', `/projects/${sibling.id}/labels/${siblings.id}`, { ns: sibling });
    expect(gone.status).toBe(404);
    // A project of another group keeps its own label.
    const kept = await h.call('GET', `/projects/${elsewhere.id}/labels/infra`, { ns: elsewhere });
    expect(labelEntity.parse(kept.body).id).toBe(unrelated.id);
  });

  it('When the project has no group, then promotion answers 400 as GitLab does', async () => {
    const project = projectNamespace({ ancestorGroupIds: [] });
    await create(project, { name: 'solo', color: '#000' });
    const res = await h.call('PUT', `/projects/${project.id}/labels/solo/promote`, { ns: project });
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'Failed to promote project label to group label' },
    });
  });
});
