import { z } from 'zod';
import { DOMAIN_EVENT_TYPES, EVENT_TYPES, activityEventEntity } from '@gl/contracts';
import { testNamespace, testPrincipal, useHarness } from '@gl/testing';
import { memberEvent, projectEvent, targetEvent, userCreated } from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';

const ID = EVENT_TYPES.identity;
const events = z.array(activityEventEntity);
/** Issue titles only: joining a project is an event of its own. */
const titles = (body: unknown): (string | null)[] =>
  events
    .parse(body)
    .filter((e) => e.target_type === 'Issue')
    .map((e) => e.target_title);

const ALICE = testPrincipal({ id: 701, username: 'alice7', name: 'Alice' });
const BOB = testPrincipal({ id: 702, username: 'bob7', name: 'Bob' });
const CAROL = testPrincipal({ id: 703, username: 'carol7', name: 'Carol' });
const DAVE = testPrincipal({ id: 704, username: 'dave7', name: 'Dave' });
/** Private projects 71 (Alice), 72 (Carol), 74 (Dave); public project 73. */
const [ALICES, CAROLS, OPEN, DAVES] = [71, 72, 73, 74];
/** The consumer's bound: short here, so the "never catches up" case ends quickly. */
const WAIT_MS = 300;

const issue = (projectId: number, title: string, author: typeof ALICE) =>
  targetEvent(
    DOMAIN_EVENT_TYPES.discussions.issueOpened,
    projectId,
    { targetId: projectId * 10, targetIid: 1, targetTitle: title },
    { actor: { id: author.id, username: author.username, name: author.name } },
  );

/**
 * Revocation is immediate: /events and /users/:id/events decide from this service's projection, which
 * follows identity events; each request carries the identity revisions the gateway signed, and the
 * service answers only from a projection (and cache entry) that has applied them.
 */
describe('events: revocations count on the very next request', () => {
  const h = useHarness(() => startEventsHarness({ revisionWaitMs: WAIT_MS }));
  let revision = 0;
  const next = (): number => ++revision;

  beforeAll(async () => {
    const r = h.instance.recorder;
    for (const user of [ALICE, BOB, CAROL, DAVE])
      await r.apply(userCreated(user.id, user.username, user.name));
    for (const id of [ALICES, CAROLS, DAVES]) await r.apply(projectEvent(ID.projectCreated, id));
    await r.apply(projectEvent(ID.projectCreated, OPEN, { visibility: 'public' }));
    await r.apply(issue(ALICES, 'alices-private', BOB));
    await r.apply(issue(CAROLS, 'carols-private', BOB));
    await r.apply(issue(OPEN, 'open-by-bob', BOB));
    await r.apply(issue(DAVES, 'daves-private', BOB));
  });

  const add = async (user: typeof ALICE, projectId: number): Promise<number> => {
    const rev = next();
    await h.instance.recorder.apply(
      memberEvent(ID.memberAdded, 'project', projectId, user.id, { revision: rev }),
    );
    return rev;
  };
  const scopeAll = (as: typeof ALICE, user: number, visibility = 0) =>
    h.call('/events?scope=all', { as, revision: { user, visibility } });

  it('When a member is removed, then their very next request no longer lists the project', async () => {
    const added = await add(ALICE, ALICES);
    expect(titles((await scopeAll(ALICE, added)).body)).toEqual(['alices-private']);
    const removed = next();
    await h.instance.recorder.apply(
      memberEvent(ID.memberRemoved, 'project', ALICES, ALICE.id, { revision: removed }),
    );
    expect(titles((await scopeAll(ALICE, removed)).body)).toEqual([]);
  });

  it('When the removal reaches the consumer only after the request, then the request waits for it', async () => {
    const added = await add(CAROL, CAROLS);
    expect(titles((await scopeAll(CAROL, added)).body)).toEqual(['carols-private']);
    const removed = next();
    // The gateway signed `removed` already; the consumer applies it while the request is in flight.
    const [reply] = await Promise.all([
      scopeAll(CAROL, removed),
      h.instance.recorder.apply(
        memberEvent(ID.memberRemoved, 'project', CAROLS, CAROL.id, { revision: removed }),
      ),
    ]);
    expect(reply.status).toBe(200);
    expect(titles(reply.body)).toEqual([]);
  });

  it('When another process applied the removal, then the cached rows read before it are not served', async () => {
    const added = await add(DAVE, DAVES);
    expect(titles((await scopeAll(DAVE, added)).body)).toEqual(['daves-private']);
    // Another replica's consumer: projection and record written, this process's cache not told.
    const removed = next();
    await h.instance.models.members.deleteMany({ userId: DAVE.id });
    await h.runtime.connection
      .collection<{ _id: string; value: number }>('projection_revisions')
      .updateOne({ _id: `user:${DAVE.id}` }, { $max: { value: removed } }, { upsert: true });
    expect(titles((await scopeAll(DAVE, removed)).body)).toEqual([]);
  });

  it('When the projection never applies the revision within the bound, then 503 with Retry-After, not a stale answer', async () => {
    const reply = await scopeAll(ALICE, revision + 1_000);
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ message: '503 Service Unavailable' });
    expect(reply.headers.get('retry-after')).toBe('1');
  });

  it("When another user's revision is pending, then a user whose memberships did not change is answered", async () => {
    const pending = revision + 2_000; // Alice's, never applied
    expect(pending).toBeGreaterThan(0);
    const bob = await h.call(`/users/${BOB.id}/events`, { as: BOB, revision: { user: 0, visibility: 0 } });
    expect(bob.status).toBe(200);
    expect(titles(bob.body)).toContain('open-by-bob');
  });

  it('When a public project turns private, then a non-member stops seeing its events on the next request', async () => {
    const before = await h.call(`/users/${BOB.id}/events`, {
      as: DAVE,
      revision: { user: 0, visibility: 0 },
    });
    expect(titles(before.body)).toEqual(['open-by-bob']);
    const hidden = next();
    await h.instance.recorder.apply(
      projectEvent(ID.projectUpdated, OPEN, { visibility: 'private', revision: hidden }),
    );
    const after = await h.call(`/users/${BOB.id}/events`, {
      as: DAVE,
      revision: { user: 0, visibility: hidden },
    });
    expect(after.status).toBe(200);
    expect(titles(after.body)).toEqual([]);
  });

  it("When /projects/:id/events is asked, then the gateway's signed access level decides, without waiting", async () => {
    const ns = testNamespace({ kind: 'project', id: ALICES, visibility: 'private', accessLevel: 0 });
    const reply = await h.call(`/projects/${ALICES}/events`, {
      as: ALICE,
      ns,
      revision: { user: revision + 5_000, visibility: 0 },
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ message: '404 Project Not Found' });
  });
});
