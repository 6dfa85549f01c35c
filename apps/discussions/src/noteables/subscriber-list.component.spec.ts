import { z } from 'zod';
import { issueEntity } from '@gl/contracts';
import { GUEST, REPORTER, testPrincipal, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { SUBSCRIBERS_TRACKED } from './issuable-subscriptions';

const subscribedIssue = issueEntity.extend({ subscribed: z.boolean() });

/**
 * An issue lists who may have chosen to subscribe or not (`subscriberIds`), so that its single answer
 * reads no subscription for anyone else; where it has no list, every caller's choice is read as before.
 */
describe('The subscribers an issue lists', () => {
  const h = useHarness(startDiscussionsHarness);
  const noteables = () => h.runtime.connection.collection('noteables');
  const stored = async (id: number) =>
    (await noteables().findOne({ _id: id as never })) as { subscriberIds?: number[] } | null;

  async function newIssue() {
    const ns = projectNamespace({ visibility: 'public' });
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Listed' } });
    const issue = subscribedIssue.parse(res.body);
    return { ns, issue, path: `/projects/${ns.id}/issues/${issue.iid}` };
  }
  /** A subscription stored directly, not through `set` (which lists the user first). */
  const subscribeBehindTheList = (noteableId: number, userId: number) =>
    h.runtime.connection
      .collection('issuable_subscriptions')
      .insertOne({ _id: `${noteableId}:${userId}`, noteableId, userId, subscribed: true } as never);
  const subscribedAs = async (ns: ReturnType<typeof projectNamespace>, path: string, as: unknown) =>
    subscribedIssue.parse((await h.call('GET', path, { ns, as: as as typeof GUEST })).body).subscribed;

  it('When an issue is created, then it lists nobody; a choice lists its user first and is answered', async () => {
    const { ns, issue, path } = await newIssue();
    expect((await stored(issue.id))?.subscriberIds).toEqual([]);
    const res = await h.call('POST', `${path}/subscribe`, { ns, as: GUEST });
    expect(subscribedIssue.parse(res.body).subscribed).toBe(true);
    expect((await stored(issue.id))?.subscriberIds).toEqual([GUEST.id]);
    expect(await subscribedAs(ns, path, GUEST)).toBe(true);
    expect(await subscribedAs(ns, path, REPORTER)).toBe(false);
    // Unsubscribing keeps the entry (a stale one only costs a read).
    await h.call('POST', `${path}/unsubscribe`, { ns, as: GUEST });
    expect((await stored(issue.id))?.subscriberIds).toEqual([GUEST.id]);
    expect(await subscribedAs(ns, path, GUEST)).toBe(false);
  });

  it('When a caller is not listed, then no subscription is read for them (choices are only made through the list)', async () => {
    const { ns, issue, path } = await newIssue();
    // A choice written behind the list's back is not seen: the list is what readers trust.
    await subscribeBehindTheList(issue.id, REPORTER.id);
    expect(await subscribedAs(ns, path, REPORTER)).toBe(false);
  });

  it('When an issue has no list (older than it), then choices are read as before', async () => {
    const { ns, issue, path } = await newIssue();
    await noteables().updateOne({ _id: issue.id as never }, { $unset: { subscriberIds: 1 } });
    await subscribeBehindTheList(issue.id, REPORTER.id);
    expect(await subscribedAs(ns, path, REPORTER)).toBe(true);
    // Choosing keeps it without a list.
    await h.call('POST', `${path}/subscribe`, { ns, as: GUEST });
    expect(await stored(issue.id)).not.toHaveProperty('subscriberIds');
    expect(await subscribedAs(ns, path, GUEST)).toBe(true);
  });

  it(`When more than ${SUBSCRIBERS_TRACKED} users chose, then the list is dropped and every choice is still answered`, async () => {
    const { ns, issue, path } = await newIssue();
    const many = Array.from({ length: SUBSCRIBERS_TRACKED }, (_, i) => 90_000 + i);
    await noteables().updateOne({ _id: issue.id as never }, { $set: { subscriberIds: many } });
    const res = await h.call('POST', `${path}/subscribe`, { ns, as: GUEST });
    expect(subscribedIssue.parse(res.body).subscribed).toBe(true);
    expect(await stored(issue.id)).not.toHaveProperty('subscriberIds');
    expect(await subscribedAs(ns, path, GUEST)).toBe(true);
    expect(await subscribedAs(ns, path, testPrincipal({ id: 90_001 }))).toBe(false);
  });
});
