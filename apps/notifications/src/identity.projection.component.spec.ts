import { randomUUID } from 'node:crypto';
import { EVENT_TYPES } from '@gl/contracts';
import { PoisonMessageError, startConsumer, type Subscription } from '@gl/service-kit';
import {
  group,
  groupEvent,
  identityEvent,
  project,
  projectEvent,
  startNotificationsHarness,
  userEvent,
} from './testing/notifications.harness';
import { useHarness } from '@gl/testing';

const ID = EVENT_TYPES.identity;

describe('notifications identity consumer', () => {
  const h = useHarness(startNotificationsHarness);

  const setLevel = (as: number, kind: 'group' | 'project', id: number, ancestors: number[] = []) =>
    h.call('PUT', `/${kind}s/${id}/notification_settings`, {
      as,
      ns: kind === 'group' ? group(id, ancestors) : project(id, ancestors),
      body: { level: 'watch' },
    });
  const levelOf = async (as: number, kind: 'group' | 'project', id: number) =>
    (
      await h.call('GET', `/${kind}s/${id}/notification_settings`, {
        as,
        ns: kind === 'group' ? group(id) : project(id),
      })
    ).body;

  it('When a project is destroyed, then every user’s setting for it is removed, and again changes nothing', async () => {
    await setLevel(20, 'project', 900, [90]);
    await setLevel(21, 'project', 900, [90]);
    await setLevel(20, 'project', 901, [90]);
    const destroyed = projectEvent(ID.projectDestroyed, 900, [90]);
    await h.deliver(destroyed);
    await h.deliver(destroyed);
    expect(await levelOf(20, 'project', 900)).toEqual({ level: 'global' });
    expect(await levelOf(21, 'project', 900)).toEqual({ level: 'global' });
    expect(await levelOf(20, 'project', 901)).toEqual({ level: 'watch' });
  });

  it('When a group is destroyed, then its settings and those of known subgroups and projects go', async () => {
    await h.deliver(groupEvent(ID.groupCreated, 80));
    await h.deliver(groupEvent(ID.groupCreated, 81, [80]));
    await h.deliver(projectEvent(ID.projectCreated, 810, [80, 81]));
    await h.deliver(projectEvent(ID.projectCreated, 820, [82]));
    await setLevel(20, 'group', 80);
    await setLevel(20, 'group', 81, [80]);
    await setLevel(20, 'project', 810, [80, 81]);
    await setLevel(20, 'project', 820, [82]);
    const destroyed = groupEvent(ID.groupDestroyed, 80);
    await h.deliver(destroyed);
    await h.deliver(destroyed);
    expect(await levelOf(20, 'group', 80)).toEqual({ level: 'global' });
    expect(await levelOf(20, 'group', 81)).toEqual({ level: 'global' });
    expect(await levelOf(20, 'project', 810)).toEqual({ level: 'global' });
    expect(await levelOf(20, 'project', 820)).toEqual({ level: 'watch' });
  });

  it('When a created event arrives after the destroyed one, then the namespace is not resurrected', async () => {
    await h.deliver(projectEvent(ID.projectDestroyed, 830, [83]));
    await h.deliver(projectEvent(ID.projectCreated, 830, [83]));
    const doc = await h.runtime.connection.collection('namespaces').findOne({ _id: 'project:830' as never });
    expect(doc).toMatchObject({ destroyed: true });
  });

  it('When the same user event arrives twice, then the addresses are recorded once', async () => {
    const event = userEvent(ID.userCreated, 30, 'user30@example.com', ['second30@example.com']);
    await h.deliver(event);
    await h.deliver(event);
    const doc = await h.runtime.connection.collection('users').findOne({ _id: 30 as never });
    expect(doc).toMatchObject({ email: 'user30@example.com', emails: ['second30@example.com'] });
    const reply = await h.call('PUT', '/notification_settings', {
      as: 30,
      body: { notification_email: 'second30@example.com' },
    });
    expect(reply.status).toBe(200);
  });

  it('When an older user event is redelivered after a newer one, then the newer addresses stay', async () => {
    const older = userEvent(ID.userUpdated, 31, 'user31@example.com', []);
    const newer = {
      ...userEvent(ID.userUpdated, 31, 'user31@example.com', ['new31@example.com']),
      occurredAt: new Date(Date.parse(older.occurredAt) + 1000).toISOString(),
    };
    await h.deliver(newer);
    await h.deliver(older);
    const doc = await h.runtime.connection.collection('users').findOne({ _id: 31 as never });
    expect(doc).toMatchObject({ emails: ['new31@example.com'] });
  });

  it('When a project event carries ancestry, then the effective level follows it without a request', async () => {
    await h.deliver(projectEvent(ID.projectCreated, 840, [84, 85]));
    await setLevel(40, 'group', 84);
    expect(await h.settings.effectiveLevel(40, 840)).toEqual({
      level: 'watch',
      source: { kind: 'group', id: 84 },
    });
  });

  it.each([
    ['user', ID.userUpdated, { userId: 'x' }],
    ['group', ID.groupDestroyed, { groupId: 1 }],
    ['project', ID.projectDestroyed, {}],
  ])('When a %s event has an invalid payload, then it is terminated as poison', async (_k, type, data) => {
    await expect(h.deliver(identityEvent(type, data))).rejects.toBeInstanceOf(PoisonMessageError);
  });

  it('When run on the bus, then a broken event is terminated and a destroyed event twice removes the setting once', async () => {
    await setLevel(50, 'project', 950);
    // A durable of its own on the one subject it needs: the shared stream also holds every other suite's
    // identity events, which a catch-all durable would replay first.
    const subscription: Subscription = {
      ...h.subscription,
      durable: `${h.subscription.durable}-bus-test-${randomUUID().slice(0, 8)}`,
      filterSubjects: [ID.projectDestroyed],
    };
    const consumer = await startConsumer(h.runtime.bus, subscription, h.runtime.logger, h.runtime.metrics);
    const outcome = async (name: string) =>
      (await h.runtime.metrics.eventsConsumed.get()).values.find(
        (v) => v.labels.durable === subscription.durable && v.labels.outcome === name,
      )?.value ?? 0;
    try {
      await h.runtime.bus.publish(identityEvent(ID.projectDestroyed, { projectId: 'not-a-number' }));
      const destroyed = projectEvent(ID.projectDestroyed, 950);
      await h.runtime.bus.publish(destroyed);
      await h.runtime.bus.publish({ ...destroyed, id: randomUUID() });
      const settled = async () =>
        (await outcome('terminated')) >= 1 &&
        (await outcome('acked')) >= 2 &&
        ((await levelOf(50, 'project', 950)) as { level: string }).level === 'global';
      for (let i = 0; i < 200 && !(await settled()); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await outcome('terminated')).toBe(1);
      expect(await outcome('acked')).toBeGreaterThanOrEqual(2);
      expect(await levelOf(50, 'project', 950)).toEqual({ level: 'global' });
    } finally {
      await consumer.stop();
    }
  });

  it('When an event of another type arrives, then it is acknowledged and ignored', async () => {
    await expect(h.deliver(identityEvent(ID.memberAdded, {}))).resolves.toBeUndefined();
  });
});
