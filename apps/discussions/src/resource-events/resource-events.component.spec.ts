import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  EVENT_TYPES,
  issueEntity,
  mergeRequestEntity,
  type NamespaceContext,
} from '@gl/contracts';
import {
  DEVELOPER,
  GUEST,
  OWNER,
  REPORTER,
  STRANGER,
  groupEventFields,
  projectEventFields,
  useHarness,
} from '@gl/testing';
import {
  groupNamespace,
  milestoneDefinition,
  projectNamespace,
  startDiscussionsHarness,
} from '../testing/discussions.harness';
import { memberEventFields } from '../testing/memberships';

/** The entities as lib/api/entities/resource_*_event.rb expose them (the contract's schemas, strict). */
const user = z.object({ id: z.number(), username: z.string() }).passthrough();
const labelEvent = z
  .object({
    id: z.number(),
    user,
    created_at: z.string(),
    resource_type: z.enum(['Issue', 'MergeRequest']),
    resource_id: z.number(),
    label: z.object({ id: z.null(), name: z.string() }).passthrough(),
    action: z.enum(['add', 'remove']),
  })
  .strict();
const milestoneEvent = z
  .object({
    id: z.number(),
    user,
    created_at: z.string(),
    resource_type: z.enum(['Issue', 'MergeRequest']),
    resource_id: z.number(),
    milestone: z.object({ id: z.number(), title: z.string().nullable() }).passthrough(),
    action: z.enum(['add', 'remove']),
    state: z.string(),
  })
  .strict();
const stateEvent = z
  .object({
    id: z.number(),
    user,
    created_at: z.string(),
    resource_type: z.enum(['Issue', 'MergeRequest']),
    resource_id: z.number(),
    source_commit: z.null(),
    source_merge_request_id: z.null(),
    state: z.string(),
  })
  .strict();
const weightEvent = z
  .object({
    id: z.number(),
    user,
    created_at: z.string(),
    issue_id: z.number(),
    weight: z.number().nullable(),
  })
  .strict();

const ID = EVENT_TYPES.identity;
let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${counter++}`;

/**
 * Resource events (lib/api/resource_{label,milestone,state}_events.rb, ee/lib/api/resource_weight_events.rb;
 * app/services/resource_events/*): recorded with the change they describe, by issue and merge request
 * creation, updates, merges and board moves; read per issuable like its notes.
 */
describe('Resource events', () => {
  const h = useHarness(startDiscussionsHarness);

  async function issueIn(ns: NamespaceContext, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Bug', ...json } });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  async function list<T>(path: string, schema: z.ZodType<T>, ns: NamespaceContext, as = DEVELOPER) {
    const res = await h.call('GET', path, { ns, as });
    expect(res.status).toBe(200);
    return z.array(schema).parse(res.body);
  }

  it('When an issue is created and updated, then its label, milestone, weight and state events, in order', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    await h.deliver(
      DOMAIN_EVENT_TYPES.boards.milestoneDefined,
      { ...milestoneDefinition(7101), title: 'v1', dueDate: '2000-01-01' },
      DURABLES.discussionsMilestoneCopies,
    );
    const issue = await issueIn(ns, { labels: 'bug,ui', milestone_id: 7101, weight: 2 });
    const p = `/projects/${ns.id}/issues/${issue.iid}`;

    // Issuable::CommonSystemNotesService runs on create too (is_update: false): labels, milestone, weight.
    const created = await list(`${p}/resource_label_events`, labelEvent, ns);
    expect(created.map((e) => [e.action, e.label.name])).toEqual([
      ['add', 'bug'],
      ['add', 'ui'],
    ]);
    expect(created[0]).toMatchObject({
      resource_type: 'Issue',
      resource_id: issue.id,
      user: { id: issue.author.id },
      label: { id: null, name: 'bug', color: null, description: null },
    });
    expect(created[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const [milestoneAdded] = await list(`${p}/resource_milestone_events`, milestoneEvent, ns);
    expect(milestoneAdded).toMatchObject({
      action: 'add',
      state: 'opened',
      milestone: { id: 7101, iid: 7101, title: 'v1', group_id: 10, state: 'active', expired: true },
    });
    expect((await list(`${p}/resource_weight_events`, weightEvent, ns)).map((e) => e.weight)).toEqual([2]);

    const put = (json: Record<string, unknown>) => h.call('PUT', p, { ns, as: DEVELOPER, json });
    expect((await put({ add_labels: 'db', remove_labels: 'bug' })).status).toBe(200);
    expect((await put({ milestone_id: 0, weight: 5 })).status).toBe(200);
    expect((await put({ state_event: 'close' })).status).toBe(200);
    expect((await put({ state_event: 'reopen', title: 'Only a title' })).status).toBe(200);

    const labels = await list(`${p}/resource_label_events`, labelEvent, ns);
    expect(labels.map((e) => [e.action, e.label.name, e.user.id])).toEqual([
      ['add', 'bug', issue.author.id],
      ['add', 'ui', issue.author.id],
      ['add', 'db', DEVELOPER.id],
      ['remove', 'bug', DEVELOPER.id],
    ]);
    // ChangeMilestoneService: a removal names the milestone removed.
    const milestones = await list(`${p}/resource_milestone_events`, milestoneEvent, ns);
    expect(milestones.map((e) => [e.action, e.milestone.id, e.state])).toEqual([
      ['add', 7101, 'opened'],
      ['remove', 7101, 'opened'],
    ]);
    expect((await list(`${p}/resource_weight_events`, weightEvent, ns)).map((e) => e.weight)).toEqual([2, 5]);
    const states = await list(`${p}/resource_state_events`, stateEvent, ns);
    expect(states.map((e) => [e.state, e.resource_id])).toEqual([
      ['closed', issue.id],
      ['reopened', issue.id],
    ]);

    const one = await h.call('GET', `${p}/resource_label_events/${labels[2]!.id}`, { ns, as: GUEST });
    expect([one.status, one.body]).toEqual([200, labels[2]]);
    const oneState = await h.call('GET', `${p}/resource_state_events/${states[0]!.id}`, { ns, as: GUEST });
    expect(stateEvent.parse(oneState.body)).toEqual(states[0]);
  });

  it('When a list is paged, then GitLab’s pagination headers; unknown ids and other issues’ events are 404', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns, { labels: 'a,b,c' });
    const other = await issueIn(ns, { labels: 'x' });
    const p = `/projects/${ns.id}/issues/${issue.iid}`;

    const first = await h.call('GET', `${p}/resource_label_events?per_page=2`, { ns, as: GUEST });
    expect(first.headers.get('x-total')).toBe('3');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await h.call('GET', `${p}/resource_label_events?per_page=2&page=2`, { ns, as: GUEST });
    expect(
      z
        .array(labelEvent)
        .parse(second.body)
        .map((e) => e.label.name),
    ).toEqual(['c']);

    const [foreign] = await list(
      `/projects/${ns.id}/issues/${other.iid}/resource_label_events`,
      labelEvent,
      ns,
    );
    for (const path of [
      `${p}/resource_label_events/${foreign!.id}`,
      `${p}/resource_label_events/999999`,
      `${p}/resource_label_events/abc`,
      `${p}/resource_milestone_events/999999`,
      `${p}/resource_weight_events/999999`,
      `${p}/resource_state_events/999999`,
    ]) {
      const res = await h.call('GET', path, { ns, as: GUEST });
      expect([path, res.status, res.body]).toEqual([path, 404, { message: '404 Not found' }]);
    }
    const missing = await h.call('GET', `/projects/${ns.id}/issues/999999/resource_label_events`, { ns });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Issue Not Found' }]);
    // resource_state_events.rb declares `eventable_iid` and `event_id` as Integer.
    const invalid = await h.call('GET', `/projects/${ns.id}/issues/abc/resource_state_events`, { ns });
    expect([invalid.status, invalid.body]).toEqual([400, { error: 'eventable_iid is invalid' }]);
  });

  it('When the caller may not read the issue, then 404 as the notes answer; without a user, 401', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const secret = await issueIn(ns, { labels: 'x', confidential: true });
    const p = `/projects/${ns.id}/issues/${secret.iid}/resource_label_events`;
    const guest = await h.call('GET', p, { ns, as: GUEST });
    expect([guest.status, guest.body]).toEqual([404, { message: '404 Issue Not Found' }]);
    expect((await h.call('GET', p, { ns, as: REPORTER })).status).toBe(200);
    expect((await h.call('GET', p, { ns, as: null })).status).toBe(401);

    const closed = projectNamespace({ visibility: 'private' });
    const hidden = await issueIn(closed, { labels: 'x' });
    const res = await h.call('GET', `/projects/${closed.id}/issues/${hidden.iid}/resource_label_events`, {
      ns: closed,
      as: STRANGER,
    });
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('When a merge request changes labels, milestone and is merged, then its events; it has no weight events', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const created = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { source_branch: `f-${unique()}`, target_branch: 'main', title: 'MR', labels: 'review' },
    });
    expect(created.status).toBe(201);
    const mr = mergeRequestEntity.parse(created.body);
    const p = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    expect((await h.call('PUT', p, { ns, json: { labels: 'done', milestone_id: 7102 } })).status).toBe(200);
    expect((await h.call('PUT', `${p}/merge`, { ns })).status).toBe(200);

    const labels = await list(`${p}/resource_label_events`, labelEvent, ns);
    expect(labels.map((e) => [e.action, e.label.name, e.resource_type, e.resource_id])).toEqual([
      ['add', 'review', 'MergeRequest', mr.id],
      ['add', 'done', 'MergeRequest', mr.id],
      ['remove', 'review', 'MergeRequest', mr.id],
    ]);
    const [milestone] = await list(`${p}/resource_milestone_events`, milestoneEvent, ns);
    // A milestone discussions has no copy of yet is shown by its id alone.
    expect(milestone).toMatchObject({ action: 'add', milestone: { id: 7102, title: null }, state: 'opened' });
    const states = await list(`${p}/resource_state_events`, stateEvent, ns);
    expect(states.map((e) => e.state)).toEqual(['merged']);
    expect((await h.call('GET', `${p}/resource_weight_events`, { ns })).status).toBe(404);
  });

  it('When a write’s events were not moved out of the issue (a crash), then the next read moves them', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    const noteables = h.runtime.connection.collection('noteables');
    const carried = JSON.stringify({
      _id: 9_000_000 + issue.id,
      kind: 'label',
      resourceType: 'Issue',
      resourceId: issue.id,
      user: issue.author,
      createdAt: new Date().toISOString(),
      action: 'add',
      labelName: 'carried',
    });
    await noteables.updateOne({ _id: issue.id } as never, { $push: { _resourceEvents: carried } } as never);

    const p = `/projects/${ns.id}/issues/${issue.iid}/resource_label_events`;
    expect((await list(p, labelEvent, ns)).map((e) => e.label.name)).toEqual(['carried']);
    expect(await noteables.findOne({ _id: issue.id } as never)).not.toHaveProperty('_resourceEvents.0');
    // Moving them again (another replica that read the issue before) adds nothing.
    expect((await list(p, labelEvent, ns)).map((e) => e.label.name)).toEqual(['carried']);
  });

  it('When several carried events are moved and another mover stored one already, then each is stored once', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    const noteables = h.runtime.connection.collection('noteables');
    const event = (n: number, labelName: string) => ({
      _id: 9_100_000 + issue.id * 10 + n,
      kind: 'label',
      resourceType: 'Issue',
      resourceId: issue.id,
      user: issue.author,
      createdAt: new Date(Date.now() + n).toISOString(),
      action: 'add',
      labelName,
    });
    const carried = [event(1, 'first'), event(2, 'second'), event(3, 'third')];
    // The second one was inserted by a mover that stopped before taking them off the issue.
    const stored = { ...carried[1]!, createdAt: new Date(carried[1]!.createdAt) };
    await h.runtime.connection.collection('resource_events').insertOne(stored as never);
    await noteables.updateOne(
      { _id: issue.id } as never,
      { $push: { _resourceEvents: { $each: carried.map((e) => JSON.stringify(e)) } } } as never,
    );

    const p = `/projects/${ns.id}/issues/${issue.iid}/resource_label_events`;
    expect((await list(p, labelEvent, ns)).map((e) => e.label.name)).toEqual(['first', 'second', 'third']);
    expect(await noteables.findOne({ _id: issue.id } as never)).not.toHaveProperty('_resourceEvents.0');
  });

  it('When an issue with a weight but no weight events is reweighted, then its old weight is recorded first', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns, { weight: 3 });
    await h.runtime.connection.collection('resource_events').deleteMany({ resourceId: issue.id });
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    expect((await h.call('PUT', p, { ns, json: { weight: 1 } })).status).toBe(200);
    const events = await list(`${p}/resource_weight_events`, weightEvent, ns);
    expect(events.map((e) => e.weight)).toEqual([3, 1]);
    expect(events[0]!.created_at).toBe(issue.updated_at);
  });

  it('When an alert’s incident is resolved (twice), then one closed state event by the alert’s actor', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const incidents = h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsIncidents)!;
    const alertId = randomUUID();
    const envelope = (type: string, data: Record<string, unknown>) => ({
      id: randomUUID(),
      type,
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'alerts',
      correlationId: 'alert-request',
      actor: { id: 9, username: 'alertbot', name: 'Alert Bot' },
      projectId: ns.id,
      groupId: null,
      data,
    });
    const ALERTS = DOMAIN_EVENT_TYPES.alerts;
    await incidents.handle(
      envelope(ALERTS.alertCreated, {
        alertId,
        alertIid: 1,
        title: 'CPU high',
        description: null,
        severity: 'critical',
        createIncident: true,
      }),
    );
    const resolved = envelope(ALERTS.alertResolved, { alertId, alertIid: 1 });
    await incidents.handle(resolved);
    await incidents.handle(resolved);
    const states = await list(`/projects/${ns.id}/issues/1/resource_state_events`, stateEvent, ns);
    expect(states.map((e) => [e.state, e.user.id, e.user.username])).toEqual([['closed', 9, 'alertbot']]);
  });

  it('When a card moves between label lists and to Closed, then the label and state events of the move', async () => {
    const g = groupNamespace({ visibility: 'private' });
    await h.deliver(ID.groupCreated, groupEventFields(g.id, { visibility: 'private', ancestorGroupIds: [] }));
    const p = projectNamespace({
      visibility: 'private',
      ancestorGroupIds: [g.id],
      fullPath: `g/${unique()}`,
    });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(p.id, { visibility: 'private', ancestorGroupIds: [g.id], fullPath: p.fullPath }),
    );
    await h.deliver(ID.memberAdded, memberEventFields('group', g.id, OWNER.id, 50));
    const [doing, review] = [`Doing${unique()}`, `Review${unique()}`];
    const boardId = 60_000 + p.id;
    await h.deliver(
      DOMAIN_EVENT_TYPES.boards.boardDefined,
      {
        boardId,
        groupId: g.id,
        revision: 1,
        deleted: false,
        milestoneId: null,
        assigneeId: null,
        labels: [],
        weight: null,
        lists: [
          { id: 1, kind: 'label', targetId: 11, labelTitle: doing },
          { id: 2, kind: 'label', targetId: 12, labelTitle: review },
        ],
        hideBacklogList: false,
        hideClosedList: false,
      },
      DURABLES.discussionsBoards,
    );
    const res = await h.call('POST', `/projects/${p.id}/issues`, {
      ns: p,
      as: OWNER,
      level: 50,
      json: { title: 'card', labels: doing },
    });
    const card = issueEntity.parse(res.body);
    const move = (json: unknown) =>
      h.call('PUT', `/groups/${g.id}/boards/${boardId}/issues/${card.id}/move`, {
        ns: g,
        as: OWNER,
        level: 50,
        json,
      });
    expect((await move({ from_list_id: 1, to_list_id: 2 })).status).toBe(200);
    expect((await move({ from_list_id: 2, to_list_id: 'closed' })).status).toBe(200);

    const base = `/projects/${p.id}/issues/${card.iid}`;
    const read = (path: string) => h.call('GET', `${base}/${path}`, { ns: p, as: OWNER, level: 50 });
    const labels = z.array(labelEvent).parse((await read('resource_label_events')).body);
    expect(labels.map((e) => [e.action, e.label.name])).toEqual([
      ['add', doing],
      ['add', review],
      ['remove', doing],
      ['remove', review],
    ]);
    const states = z.array(stateEvent).parse((await read('resource_state_events')).body);
    expect(states.map((e) => [e.state, e.user.id])).toEqual([['closed', OWNER.id]]);
  });
});
