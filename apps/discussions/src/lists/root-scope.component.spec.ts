import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DOMAIN_EVENT_TYPES, DURABLES, EVENT_TYPES, issueEntity, type NamespaceContext } from '@gl/contracts';
import { OWNER, gatewayEvent, groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import { issueRootScopesMigration } from '../migrations/issue-root-scopes';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { memberEventFields } from '../testing/memberships';

const ID = EVENT_TYPES.identity;
const issues = z.array(issueEntity);
let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${counter++}`;

/**
 * Group lists over most of a root group's projects read its issues by their root scope (root-scope.ts):
 * the answers are the same as by project, the issues follow a transferred project, incidents carry the
 * scope, and the migration gives older issues theirs.
 */
describe('Group issue lists read by root scope', () => {
  const h = useHarness(startDiscussionsHarness);
  const noteables = () => h.runtime.connection.collection('noteables');

  async function group(): Promise<NamespaceContext> {
    const g = groupNamespace({ visibility: 'private' });
    await h.deliver(ID.groupCreated, groupEventFields(g.id, { visibility: 'private' }));
    await h.deliver(ID.memberAdded, memberEventFields('group', g.id, OWNER.id, 50));
    return g;
  }

  async function project(root: NamespaceContext): Promise<NamespaceContext> {
    const ns = projectNamespace({ ancestorGroupIds: [root.id], fullPath: `r/${unique()}` });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(ns.id, { ancestorGroupIds: [root.id], fullPath: ns.fullPath, revision: 1 }),
    );
    return ns;
  }

  async function open(ns: NamespaceContext, title: string, labels = ''): Promise<void> {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, level: 50, json: { title, labels } });
    expect(res.status).toBe(201);
  }

  const list = async (g: NamespaceContext, query: string) => {
    const res = await h.call('GET', `/groups/${g.id}/issues?${query}`, { ns: g, level: 50, as: OWNER });
    expect(res.status).toBe(200);
    return { titles: issues.parse(res.body).map((i) => i.title), total: res.headers.get('x-total') };
  };

  /** A root group of nine projects (enough for the root scope), two issues each, one labelled. */
  async function root() {
    const g = await group();
    const label = `L${unique()}`;
    const projects: NamespaceContext[] = [];
    for (let i = 0; i < 9; i++) {
      const ns = await project(g);
      projects.push(ns);
      await open(ns, `${i} plain`);
      await open(ns, `${i} labelled`, label);
    }
    return { g, label, projects };
  }

  it('When a group lists issues over all nine projects, then they are the same as by project, newest first, on every page', async () => {
    const { g, label } = await root();
    const all = await list(g, 'per_page=100');
    expect(all.titles).toHaveLength(18);
    expect(all.titles.slice(0, 2)).toEqual(['8 labelled', '8 plain']);
    const labelled = await list(g, `labels=${label}&state=opened&per_page=4&page=2`);
    expect(labelled).toEqual({
      titles: ['4 labelled', '3 labelled', '2 labelled', '1 labelled'],
      total: '9',
    });
  });

  it("When the root scope is read on the local FerretDB, then the page walks the root's list index without a sort", async () => {
    const { g, label, projects } = await root();
    const filter = {
      $and: [
        { kind: 'Issue' },
        { positionScope: `g${g.id}` },
        { projectId: { $in: projects.map((p) => p.id) } },
        { state: 'opened' },
        { labelKeys: { $regex: ` l${Buffer.from(label).toString('hex')} ` } },
      ],
    };
    const explained = (await noteables()
      .find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .limit(21)
      .explain()) as {
      queryPlanner?: { Plan?: string[] };
    };
    const plan = explained.queryPlanner?.Plan;
    if (!Array.isArray(plan)) return; // not the local FerretDB
    expect(plan.map((line) => line.replace(/^.*detail=/, ''))).toEqual([
      expect.stringMatching(
        /^SEARCH \S+ USING INDEX \S+_kind_1_positionScope_1_createdAt_1__id_1_projectId_1_/,
      ),
    ]);
  });

  it("When a project moves to another root group, then its issues leave the old root's list and join the new one's", async () => {
    const from = await root();
    const to = await root();
    const moved = from.projects[0]!;
    await h.deliver(
      ID.projectUpdated,
      projectEventFields(moved.id, { ancestorGroupIds: [to.g.id], fullPath: moved.fullPath, revision: 2 }),
    );
    const scopes = await noteables().distinct('positionScope', { projectId: moved.id });
    expect(scopes).toEqual([`g${to.g.id}`]);
    expect((await list(from.g, 'per_page=100')).titles).toHaveLength(16);
    const joined = await list(to.g, 'per_page=100');
    expect(joined.titles).toHaveLength(20);
    expect(joined.titles.filter((t) => t.startsWith('0 '))).toHaveLength(4);
    // An older event delivered again leaves them where the copy says the project is.
    const older = gatewayEvent(
      ID.projectUpdated,
      projectEventFields(moved.id, { ancestorGroupIds: [from.g.id], fullPath: moved.fullPath }),
    );
    const identity = h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsIdentity)!;
    await identity.handle({ ...older, occurredAt: new Date(Date.now() - 60_000).toISOString() });
    expect(await noteables().distinct('positionScope', { projectId: moved.id })).toEqual([`g${to.g.id}`]);
  });

  it("When an alert opens an incident in one of the root's projects, then the root's list shows it", async () => {
    const { g, projects } = await root();
    const incidents = h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsIncidents)!;
    await incidents.handle({
      id: randomUUID(),
      type: DOMAIN_EVENT_TYPES.alerts.alertCreated,
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'alerts',
      correlationId: 'alert-request',
      actor: { id: 9, username: 'alertbot', name: 'Alert Bot' },
      projectId: projects[3]!.id,
      groupId: null,
      data: {
        alertId: randomUUID(),
        alertIid: 1,
        title: 'CPU high',
        description: null,
        severity: 'critical',
        createIncident: true,
      },
    });
    expect((await list(g, 'per_page=1')).titles).toEqual(['CPU high']);
  });

  it('When issues were stored without their scope, then migration 8 gives them their root and their list finds them', async () => {
    const { g, projects } = await root();
    await noteables().updateMany(
      { projectId: { $in: projects.map((p) => p.id) } },
      { $unset: { positionScope: '' } },
    );
    expect((await list(g, 'per_page=100')).titles).toHaveLength(0);
    await issueRootScopesMigration(8).up(h.runtime.connection, h.runtime.logger);
    expect((await list(g, 'per_page=100')).titles).toHaveLength(18);
  });
});
