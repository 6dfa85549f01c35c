import { z } from 'zod';
import {
  EVENT_TYPES,
  epicEntity,
  issueEntity,
  mergeRequestEntity,
  type IssueEntity,
  messageError,
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
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const ID = EVENT_TYPES.identity;
const subscribedIssue = issueEntity.extend({ subscribed: z.boolean() });
const subscribedMergeRequest = mergeRequestEntity.extend({ subscribed: z.boolean() });

describe('Subscriptions to issues and merge requests; reviewers, weight and epic_id', () => {
  const h = useHarness(startDiscussionsHarness);

  async function issueIn(ns: ReturnType<typeof projectNamespace>, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Issue', ...json } });
    expect(res.status).toBe(201);
    return subscribedIssue.parse(res.body);
  }

  async function mergeRequestIn(ns: ReturnType<typeof projectNamespace>, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { source_branch: `b${Math.random()}`, target_branch: 'main', title: 'MR', ...json },
    });
    expect(res.status).toBe(201);
    return { ...subscribedMergeRequest.parse(res.body), raw: res.body as { reviewers: unknown[] } };
  }

  it('When a non-participant subscribes to an issue, then 201 with subscribed, 304 the second time, and the GET says so for that caller only', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    // The author takes part: subscribed without a subscription of their own.
    expect(issue.subscribed).toBe(true);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const before = await h.call('GET', p, { ns, as: GUEST });
    expect(subscribedIssue.parse(before.body).subscribed).toBe(false);

    const first = await h.call('POST', `${p}/subscribe`, { ns, as: GUEST });
    expect(first.status).toBe(201);
    expect(subscribedIssue.parse(first.body)).toMatchObject({ iid: issue.iid, subscribed: true });
    const again = await h.call('POST', `${p}/subscribe`, { ns, as: GUEST });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    expect(subscribedIssue.parse((await h.call('GET', p, { ns, as: GUEST })).body).subscribed).toBe(true);
    expect(subscribedIssue.parse((await h.call('GET', p, { ns, as: REPORTER })).body).subscribed).toBe(false);
    // Lists leave it out (include_subscribed: false).
    const list = (await h.call('GET', `/projects/${ns.id}/issues`, { ns, as: GUEST })).body as object[];
    expect(list[0]).not.toHaveProperty('subscribed');

    const off = await h.call('POST', `${p}/unsubscribe`, { ns, as: GUEST });
    expect(off.status).toBe(201);
    expect(subscribedIssue.parse(off.body).subscribed).toBe(false);
    expect((await h.call('POST', `${p}/unsubscribe`, { ns, as: GUEST })).status).toBe(304);

    // The issue's subscriptions go with it (Issues::DestroyService).
    const stored = () =>
      h.runtime.connection.collection('issuable_subscriptions').countDocuments({ noteableId: issue.id });
    expect(await stored()).toBe(1);
    expect((await h.call('DELETE', p, { ns })).status).toBe(204);
    expect(await stored()).toBe(0);
  });

  it('When the author unsubscribes, then the choice wins over taking part; commenters are subscribed', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const off = await h.call('POST', `${p}/unsubscribe`, { ns });
    expect(off.status).toBe(201);
    expect(subscribedIssue.parse(off.body).subscribed).toBe(false);
    expect(subscribedIssue.parse((await h.call('GET', p, { ns })).body).subscribed).toBe(false);
    expect((await h.call('POST', `${p}/unsubscribe`, { ns })).status).toBe(304);

    await h.call('POST', `${p}/notes`, { ns, as: DEVELOPER, json: { body: 'me too' } });
    expect(subscribedIssue.parse((await h.call('GET', p, { ns, as: DEVELOPER })).body).subscribed).toBe(true);
    expect((await h.call('POST', `${p}/subscribe`, { ns, as: DEVELOPER })).status).toBe(304);
  });

  it('When the issue is unknown, unreadable or the caller anonymous, then 404 and 401 as GitLab', async () => {
    const ns = projectNamespace({ visibility: 'private' });
    const issue = await issueIn(ns, { confidential: true });
    const p = `/projects/${ns.id}/issues`;
    const unknown = await h.call('POST', `${p}/9999/subscribe`, { ns });
    expect(unknown.status).toBe(404);
    expect(messageError.parse(unknown.body).message).toBe('404 Not found');
    expect((await h.call('POST', `${p}/abc/subscribe`, { ns })).status).toBe(404);
    // A confidential issue a Guest cannot read is not found.
    expect((await h.call('POST', `${p}/${issue.iid}/subscribe`, { ns, as: GUEST })).status).toBe(404);
    // Not a member of the private project: the project is not found.
    const stranger = await h.call('POST', `${p}/${issue.iid}/subscribe`, { ns, as: STRANGER });
    expect(stranger.status).toBe(404);
    expect(messageError.parse(stranger.body).message).toBe('404 Project Not Found');
    const anonymous = await h.call('POST', `${p}/${issue.iid}/unsubscribe`, { ns, as: null });
    expect(anonymous.status).toBe(401);
  });

  it('When merge requests are subscribed to, then who may update them gets 201/304 and a Guest 403', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const mr = await mergeRequestIn(ns);
    expect(mr.subscribed).toBe(true);
    const p = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    const first = await h.call('POST', `${p}/subscribe`, { ns, as: DEVELOPER });
    expect(first.status).toBe(201);
    expect(subscribedMergeRequest.parse(first.body)).toMatchObject({ iid: mr.iid, subscribed: true });
    expect((await h.call('POST', `${p}/subscribe`, { ns, as: DEVELOPER })).status).toBe(304);
    const shown = await h.call('GET', p, { ns, as: DEVELOPER });
    expect(subscribedMergeRequest.parse(shown.body).subscribed).toBe(true);
    const off = await h.call('POST', `${p}/unsubscribe`, { ns, as: DEVELOPER });
    expect(subscribedMergeRequest.parse(off.body).subscribed).toBe(false);

    const guest = await h.call('POST', `${p}/subscribe`, { ns, as: GUEST });
    expect(guest.status).toBe(403);
    expect(messageError.parse(guest.body).message).toBe('403 Forbidden');
    expect((await h.call('POST', `/projects/${ns.id}/merge_requests/999/subscribe`, { ns })).status).toBe(
      404,
    );
    expect((await h.call('POST', `${p}/subscribe`, { ns, as: null })).status).toBe(401);
  });

  it('When reviewer_ids are given, then known readers become reviewers (one on the free tier), shown as users, with system notes', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    await h.runtime.connection.collection('users').insertMany([
      { _id: DEVELOPER.id, username: DEVELOPER.username, name: DEVELOPER.name, occurredAt: '2020' },
      { _id: REPORTER.id, username: REPORTER.username, name: REPORTER.name, occurredAt: '2020' },
    ] as never);
    const mr = await mergeRequestIn(ns, { reviewer_ids: [DEVELOPER.id, 424242] });
    expect(mr.raw.reviewers).toEqual([
      expect.objectContaining({ id: DEVELOPER.id, username: 'dev', web_url: 'http://localhost/dev' }),
    ]);
    const p = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    // A reviewer takes part.
    expect(
      subscribedMergeRequest.parse((await h.call('GET', p, { ns, as: DEVELOPER })).body).subscribed,
    ).toBe(true);
    const both = await h.call('PUT', p, { ns, json: { reviewer_ids: `${REPORTER.id},${DEVELOPER.id}` } });
    expect(both.status).toBe(200);
    expect(mergeRequestEntity.parse(both.body).reviewers.map((r) => r.id)).toEqual([
      REPORTER.id,
      DEVELOPER.id,
    ]);
    const free = await h.call('PUT', p, {
      ns,
      tier: 'free',
      json: { reviewer_ids: [DEVELOPER.id, REPORTER.id] },
    });
    expect(mergeRequestEntity.parse(free.body).reviewers.map((r) => r.id)).toEqual([DEVELOPER.id]);
    // Unknown users only: nothing changes; 0 removes them.
    const unknown = await h.call('PUT', p, { ns, json: { reviewer_ids: [424242] } });
    expect(mergeRequestEntity.parse(unknown.body).reviewers.map((r) => r.id)).toEqual([DEVELOPER.id]);
    const none = await h.call('PUT', p, { ns, json: { reviewer_ids: 0 } });
    expect(mergeRequestEntity.parse(none.body).reviewers).toEqual([]);
    const list = await h.call('GET', `/projects/${ns.id}/merge_requests`, { ns });
    expect((list.body as { reviewers: unknown[] }[])[0]!.reviewers).toEqual([]);

    const notes = await h.call('GET', `${p}/notes?sort=asc`, { ns });
    const bodies = (notes.body as { body: string; system: boolean }[])
      .filter((n) => n.system)
      .map((n) => n.body);
    expect(bodies).toEqual([
      'requested review from @rep',
      'removed review request for @rep',
      'removed review request for @dev',
    ]);
  });

  it('When a weight is given, then the tiers with weights keep and show it, validate it, and the free tier ignores it', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns, { weight: 3 });
    expect(issue.weight).toBe(3);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const changed = await h.call('PUT', p, { ns, json: { weight: 5 } });
    expect(changed.status).toBe(200);
    expect(issueEntity.parse(changed.body).weight).toBe(5);
    const bad = await h.call('PUT', p, { ns, json: { weight: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { weight: ['must be greater than or equal to 0'] } });
    const list = await h.call('GET', `/projects/${ns.id}/issues`, { ns });
    expect((list.body as { weight?: number }[])[0]!.weight).toBe(5);

    const free = await h.call('PUT', p, { ns, tier: 'free', json: { weight: 1, title: 'T' } });
    expect(free.status).toBe(200);
    expect(free.body).not.toHaveProperty('weight');
    expect(issueEntity.parse((await h.call('GET', p, { ns })).body).weight).toBe(5);
    const cleared = await h.call('PUT', p, { ns, json: { weight: null, title: 'T2' } });
    expect(issueEntity.parse(cleared.body).weight).toBeNull();
  });

  it('When lists filter by weight or reviewer, then they match the stored weights and reviewers (None, Any, not[], reviews_for_me)', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    await h.runtime.connection
      .collection<{ _id: number }>('users')
      .updateOne(
        { _id: DEVELOPER.id },
        { $setOnInsert: { username: DEVELOPER.username, name: DEVELOPER.name, occurredAt: '2020' } },
        { upsert: true },
      );
    const heavy = await issueIn(ns, { title: 'heavy', weight: 3 });
    await issueIn(ns, { title: 'light', weight: 0 });
    await issueIn(ns, { title: 'unweighed' });
    const issueTitles = async (query: string) =>
      (
        (await h.call('GET', `/projects/${ns.id}/issues?${query}&sort=asc`, { ns })).body as {
          title: string;
        }[]
      ).map((i) => i.title);
    expect(await issueTitles(`weight=${heavy.weight}`)).toEqual(['heavy']);
    expect(await issueTitles('weight=None')).toEqual(['unweighed']);
    expect(await issueTitles('weight=Any')).toEqual(['heavy', 'light']);

    const reviewed = await mergeRequestIn(ns, { title: 'reviewed', reviewer_ids: [DEVELOPER.id] });
    await mergeRequestIn(ns, { title: 'alone' });
    const mrTitles = async (query: string, as = OWNER) =>
      (
        (await h.call('GET', `/projects/${ns.id}/merge_requests?${query}&sort=asc`, { ns, as })).body as {
          title: string;
        }[]
      ).map((m) => m.title);
    expect(reviewed.title).toBe('reviewed');
    expect(await mrTitles(`reviewer_id=${DEVELOPER.id}`)).toEqual(['reviewed']);
    expect(await mrTitles(`reviewer_username=${DEVELOPER.username}`)).toEqual(['reviewed']);
    expect(await mrTitles('reviewer_username=nobody-here')).toEqual([]);
    expect(await mrTitles('reviewer_id=None')).toEqual(['alone']);
    expect(await mrTitles('reviewer_id=Any')).toEqual(['reviewed']);
    expect(await mrTitles(`not[reviewer_id]=${DEVELOPER.id}`)).toEqual(['alone']);
    expect(await mrTitles(`not[reviewer_username]=${DEVELOPER.username}`)).toEqual(['alone']);
    expect(await mrTitles('scope=reviews_for_me', DEVELOPER)).toEqual(['reviewed']);
  });

  it("When epic_id is given on PUT, then the issue joins an epic of its group's tree, 0 takes it out, an unknown epic is 404", async () => {
    const g = groupNamespace({ visibility: 'private' });
    await h.deliver(ID.groupCreated, groupEventFields(g.id, { visibility: 'private', ancestorGroupIds: [] }));
    const ns = projectNamespace({ visibility: 'private', ancestorGroupIds: [g.id], fullPath: `g${g.id}/p` });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(ns.id, { visibility: 'private', ancestorGroupIds: [g.id], fullPath: ns.fullPath }),
    );
    const epic = epicEntity.parse(
      (await h.call('POST', `/groups/${g.id}/epics`, { ns: g, json: { title: 'E' } })).body,
    );
    const other = groupNamespace({ visibility: 'private' });
    const foreign = epicEntity.parse(
      (await h.call('POST', `/groups/${other.id}/epics`, { ns: other, json: { title: 'F' } })).body,
    );
    const issue = await issueIn(ns);
    expect(issue.epic_iid).toBeNull();
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const joined = await h.call('PUT', p, { ns, json: { epic_id: epic.id } });
    expect(joined.status).toBe(200);
    expect(issueEntity.parse(joined.body)).toMatchObject({
      epic_iid: epic.iid,
      epic: {
        id: epic.id,
        iid: epic.iid,
        title: 'E',
        group_id: g.id,
        url: `http://localhost/groups/g${g.id}/-/epics/${epic.iid}`,
      },
    });
    // Lists show the epic too (EE::API::Entities::Issue), its URL from the project's ancestors.
    const page = (await h.call('GET', `/projects/${ns.id}/issues`, { ns })).body as IssueEntity[];
    expect(page[0]).toMatchObject({
      epic_iid: epic.iid,
      epic: { id: epic.id, url: `http://localhost/groups/g${g.id}/-/epics/${epic.iid}` },
    });
    const freeList = await h.call('GET', `/projects/${ns.id}/issues`, { ns, tier: 'free' });
    expect((freeList.body as object[])[0]).not.toHaveProperty('epic_iid');
    const listed = await h.call('GET', `/groups/${g.id}/epics/${epic.iid}/issues`, { ns: g });
    expect((listed.body as { id: number }[]).map((i) => i.id)).toEqual([issue.id]);

    for (const id of [foreign.id, 999999]) {
      const missing = await h.call('PUT', p, { ns, json: { epic_id: id } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
    }
    expect((await h.call('PUT', p, { ns, tier: 'free', json: { epic_id: epic.id } })).status).toBe(404);
    const out = await h.call('PUT', p, { ns, json: { epic_id: 0 } });
    expect(issueEntity.parse(out.body)).toMatchObject({ epic_iid: null, epic: null });
    expect((await h.call('GET', `/groups/${g.id}/epics/${epic.iid}/issues`, { ns: g })).body).toEqual([]);
    // epic_id alone is enough for GitLab's at_least_one_of.
    expect((await h.call('PUT', p, { ns, json: { epic_id: 0 } })).status).toBe(200);
    expect((await h.call('PUT', p, { ns, as: OWNER, json: {} })).status).toBe(400);
  });
});
