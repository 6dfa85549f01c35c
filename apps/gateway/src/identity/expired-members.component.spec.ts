import { EVENT_TYPES, memberEventData, type EventEnvelope } from '@gl/contracts';
import { createOutbox, todayUtc } from '@gl/service-kit';
import { useGatewayHarness, type GatewayHarness } from '../testing/gateway.harness';
import { asRecord } from '../testing/identity.api';
import { createExpiredMembersSweep, type ExpiredMembersSweep } from './expired-members';
import { removeExpiredMember } from './member-writes';
import { openIdentity } from './identity.setup';
import type { IdentityDeps } from './identity.deps';

const EXPIRED = EVENT_TYPES.identity.memberExpired;

describe('identity: expired members are removed (RemoveExpiredMembersWorker)', () => {
  const suite = useGatewayHarness({ name: 'gateway-expired-members' });
  const { api, published, make } = suite;
  let deps: IdentityDeps;
  let sweep: ExpiredMembersSweep;

  beforeAll(async () => {
    deps = await openIdentity(suite.gw.runtime, { externalUrl: 'http://gitlab.example.test' });
    sweep = createExpiredMembersSweep(deps, suite.gw.runtime.logger, { intervalMs: 60_000, batchSize: 2 });
  });

  /** Adds a member with an expiry date through the API (today is allowed, and is already expired). */
  async function addMember(
    source: 'groups' | 'projects',
    id: number,
    userId: number,
    expiresAt: string | null,
  ) {
    const res = await api('POST', `/${source}/${id}/members`, {
      body: { user_id: userId, access_level: 30, expires_at: expiresAt },
    });
    expect(res.status).toBe(201);
  }

  /** An expiry in the past, as time passing leaves it (the API refuses past dates). */
  async function backdate(h: GatewayHarness, userId: number, expiresAt: string): Promise<void> {
    await h.models.members.updateMany({ userId }, { $set: { expiresAt } });
  }

  async function memberStatus(source: 'groups' | 'projects', id: number, userId: number): Promise<number> {
    return (await api('GET', `/${source}/${id}/members/${userId}`)).status;
  }

  function expiredOf(events: EventEnvelope[], userId: number): EventEnvelope[] {
    return events.filter((e) => e.data.userId === userId);
  }

  it('When a sweep runs, then expired project and group members are removed, each with one member.expired authored by the member, and unexpired members stay', async () => {
    const owner = await make.user();
    const project = await make.project(owner.token);
    const group = await make.group(owner.token);
    const [today, longAgo, future, never, groupExpired] = await Promise.all([
      make.user(),
      make.user(),
      make.user(),
      make.user(),
      make.user(),
    ]);
    await addMember('projects', project.id, today.id, todayUtc());
    await addMember('projects', project.id, longAgo.id, '2099-01-01');
    await backdate(suite.gw, longAgo.id, '2020-01-01');
    await addMember('projects', project.id, future.id, '2099-12-31');
    await addMember('projects', project.id, never.id, null);
    await addMember('groups', group.id, groupExpired.id, todayUtc());

    expect(await sweep.runOnce()).toBeGreaterThanOrEqual(3);

    expect(await memberStatus('projects', project.id, today.id)).toBe(404);
    expect(await memberStatus('projects', project.id, longAgo.id)).toBe(404);
    expect(await memberStatus('groups', group.id, groupExpired.id)).toBe(404);
    expect(await memberStatus('projects', project.id, future.id)).toBe(200);
    expect(await memberStatus('projects', project.id, never.id)).toBe(200);
    expect(await memberStatus('projects', project.id, owner.id)).toBe(200);

    const events = await published(EXPIRED);
    const [event] = expiredOf(events, today.id);
    expect(expiredOf(events, today.id)).toHaveLength(1);
    expect(event!.projectId).toBe(project.id);
    expect(event!.actor).toEqual({ id: today.id, username: today.username, name: `User ${today.username}` });
    expect(memberEventData.parse(event!.data)).toMatchObject({
      sourceType: 'project',
      sourceId: project.id,
      userId: today.id,
      accessLevel: 30,
      expiresAt: todayUtc(),
    });
    expect(expiredOf(events, longAgo.id)).toHaveLength(1);
    expect(expiredOf(events, groupExpired.id).map((e) => e.groupId)).toEqual([group.id]);
    expect(expiredOf(events, future.id)).toEqual([]);
    expect(expiredOf(events, never.id)).toEqual([]);
    // Not a member.removed: the events service records `expired`, not `left`.
    expect(expiredOf(await published(EVENT_TYPES.identity.memberRemoved), today.id)).toEqual([]);

    // The member's next requests wait for the removal to be applied (revisions.ts).
    const user = await suite.gw.models.users.findById(today.id).lean();
    expect(user!.accessRevision).toBeGreaterThanOrEqual(memberEventData.parse(event!.data).revision!);

    // A second sweep finds nothing more and publishes nothing more.
    await sweep.runOnce();
    expect(expiredOf(await published(EXPIRED), today.id)).toHaveLength(1);
  });

  it('When two gateway replicas sweep at the same time, then each expired member is removed once and its event published once', async () => {
    // A second replica: its own connection, models, identity cache and outbox on the same database.
    const connection = suite.gw.runtime.connection.useDb(suite.gw.runtime.connection.name, {
      useCache: false,
    });
    const outbox = createOutbox({ connection, bus: suite.gw.runtime.bus, logger: suite.gw.runtime.logger });
    const replica = await openIdentity({ connection, outbox }, { externalUrl: 'http://gitlab.example.test' });
    const other = createExpiredMembersSweep(replica, suite.gw.runtime.logger, {
      intervalMs: 60_000,
      batchSize: 2,
    });

    const owner = await make.user();
    const project = await make.project(owner.token);
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => make.user()));
    for (const user of users) await addMember('projects', project.id, user.id, todayUtc());

    const [a, b] = await Promise.all([sweep.runOnce(), other.runOnce()]);
    expect(a + b).toBe(users.length);

    await outbox.drain();
    const events = await published(EXPIRED);
    for (const user of users) {
      expect(expiredOf(events, user.id)).toHaveLength(1);
      expect(await memberStatus('projects', project.id, user.id)).toBe(404);
    }
    // Nothing of the removals is left unpublished. (A member.added written just before may still wait in
    // `pending` for its owner check, which the removal made moot: the outbox settles it on its own.)
    await Promise.all([outbox.drain(), suite.gw.runtime.outbox.drain()]);
    const unpublished = await suite.gw.runtime.connection
      .collection<{ payload?: string }>('outbox')
      .find({ state: { $ne: 'published' } })
      .toArray();
    expect(unpublished.filter((row) => row.payload?.includes(EXPIRED))).toEqual([]);
  });

  it('When one removal is attempted twice from the same read (a retry, a racing replica), then the second does nothing', async () => {
    const owner = await make.user();
    const project = await make.project(owner.token);
    const user = await make.user();
    await addMember('projects', project.id, user.id, todayUtc());
    const member = await suite.gw.models.members.findOne({ sourceId: project.id, userId: user.id }).lean();

    expect(await removeExpiredMember(deps, member!, { producer: 'gateway', correlationId: null }, null)).toBe(
      true,
    );
    expect(await removeExpiredMember(deps, member!, { producer: 'gateway', correlationId: null }, null)).toBe(
      false,
    );
    expect(expiredOf(await published(EXPIRED), user.id)).toHaveLength(1);
  });

  it('When the expiry is moved after the sweep read the member, then the member stays and nothing is published', async () => {
    const owner = await make.user();
    const project = await make.project(owner.token);
    const user = await make.user();
    await addMember('projects', project.id, user.id, todayUtc());
    const member = await suite.gw.models.members.findOne({ sourceId: project.id, userId: user.id }).lean();
    const extended = await api('PUT', `/projects/${project.id}/members/${user.id}`, {
      body: { access_level: 30, expires_at: '2099-06-30' },
    });
    expect(extended.status).toBe(200);

    expect(await removeExpiredMember(deps, member!, { producer: 'gateway', correlationId: null }, null)).toBe(
      false,
    );
    const kept = await api('GET', `/projects/${project.id}/members/${user.id}`);
    expect(asRecord(kept.body).expires_at).toBe('2099-06-30');
    expect(expiredOf(await published(EXPIRED), user.id)).toEqual([]);
  });

  it("When a group's only owner has expired, then the membership is kept (a group keeps an owner); with another owner it goes", async () => {
    const owner = await make.user();
    const group = await make.group(owner.token);
    await backdate(suite.gw, owner.id, '2020-01-01');
    await sweep.runOnce();
    expect(await suite.gw.models.members.exists({ sourceId: group.id, userId: owner.id })).not.toBeNull();
    expect(expiredOf(await published(EXPIRED), owner.id)).toEqual([]);

    const second = await make.user();
    const res = await api('POST', `/groups/${group.id}/members`, {
      body: { user_id: second.id, access_level: 50 },
    });
    expect(res.status).toBe(201);
    await sweep.runOnce();
    expect(await suite.gw.models.members.exists({ sourceId: group.id, userId: owner.id })).toBeNull();
    expect(expiredOf(await published(EXPIRED), owner.id)).toHaveLength(1);
  });
});
