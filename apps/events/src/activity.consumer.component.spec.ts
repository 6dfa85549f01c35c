import { DOMAIN_EVENT_TYPES, DURABLES, EVENT_SUBJECTS, EVENT_TYPES } from '@gl/contracts';
import { PoisonMessageError, startConsumer } from '@gl/service-kit';
import { activityLogSubscription } from './activity.consumer';
import { ACTOR, envelope, memberEvent, projectEvent, targetEvent, userCreated } from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';
import { useHarness } from '@gl/testing';

const ID = EVENT_TYPES.identity;
const D = DOMAIN_EVENT_TYPES.discussions;
let nextProject = 9_000;
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('events-activity-log consumer', () => {
  const h = useHarness(startEventsHarness);
  const recorder = () => h.instance.recorder;
  const count = (projectId: number) => h.instance.models.activities.countDocuments({ projectId });
  /** A project's recorded events in id order, the order of every list. */
  const recorded = (projectId: number) =>
    h.instance.models.activities.find({ projectId }).sort({ _id: 1 }).lean();

  it('When subscribed, then it reads every subject on its durable', () => {
    expect(h.instance.subscriptions).toEqual([
      expect.objectContaining({ durable: DURABLES.activityLog, filterSubjects: EVENT_SUBJECTS }),
    ]);
  });

  it('When the same event arrives twice, then one activity event', async () => {
    const projectId = nextProject++;
    const opened = targetEvent(D.issueOpened, projectId, { targetId: 1, targetIid: 1, targetTitle: 'Once' });
    await recorder().apply(opened);
    await recorder().apply(opened);
    await Promise.all([recorder().apply(opened), recorder().apply(opened)]);
    expect(await count(projectId)).toBe(1);
  });

  it('When the service stopped after recording an activity but before marking the event, then a redelivery still records it once', async () => {
    const projectId = nextProject++;
    const opened = targetEvent(D.issueOpened, projectId, { targetId: 1, targetIid: 1, targetTitle: 'Crash' });
    await recorder().apply(opened);
    await h.instance.models.ingested.deleteOne({ _id: opened.id });
    await recorder().apply(opened);
    expect(await count(projectId)).toBe(1);
    expect(await h.instance.models.ingested.exists({ _id: opened.id })).not.toBeNull();
  });

  it('When a batch carries a broken event, a duplicate and the creator membership, then only the broken one is poison and the rest is recorded once', async () => {
    const projectId = nextProject++;
    const opened = targetEvent(D.issueOpened, projectId, { targetId: 1, targetIid: 1, targetTitle: 'A' });
    const outcome = await recorder().applyBatch([
      projectEvent(ID.projectCreated, projectId, { correlationId: 'req-b' }),
      memberEvent(ID.memberAdded, 'project', projectId, ACTOR.id, {
        accessLevel: 50,
        correlationId: 'req-b',
      }),
      opened,
      envelope({ type: D.issueOpened, projectId, data: {} }),
      opened,
      targetEvent(D.issueClosed, projectId, { targetId: 1, targetIid: 1, targetTitle: 'A' }),
    ]);
    expect([...outcome.poisoned!.keys()]).toEqual([3]);
    const actions = await recorded(projectId);
    expect(actions.map((a) => a.actionName)).toEqual(['created', 'opened', 'closed']);
  });

  it('When a batch is redelivered after being cut short, then the log holds each event once, with its id', async () => {
    const projectId = nextProject++;
    const batch = [1, 2, 3].map((iid) =>
      targetEvent(D.issueOpened, projectId, { targetId: iid, targetIid: iid, targetTitle: `Cut ${iid}` }),
    );
    await recorder().applyBatch(batch);
    const ids = (await recorded(projectId)).map((a) => a._id);
    // Stopped before marking the events done (one left as an older build's claim).
    await h.instance.models.ingested.updateMany(
      { _id: { $in: batch.map((e) => e.id) } },
      { $set: { done: false } },
    );
    await h.instance.models.ingested.deleteOne({ _id: batch[0]!.id });
    await recorder().applyBatch([...batch].reverse());
    expect(await count(projectId)).toBe(3);
    const again = await recorded(projectId);
    expect(again.map((a) => [a._id, a.targetIid])).toEqual(ids.map((id, i) => [id, i + 1]));
    expect(
      await h.instance.models.ingested.countDocuments({ _id: { $in: batch.map((e) => e.id) }, done: true }),
    ).toBe(3);
  });

  it('When a batch of hundreds of events is applied, then each is recorded, in order', async () => {
    const projectId = nextProject++;
    const batch = Array.from({ length: 250 }, (_, i) =>
      targetEvent(D.issueOpened, projectId, { targetId: i, targetIid: i, targetTitle: `Bulk ${i}` }),
    );
    await recorder().applyBatch(batch);
    expect(await count(projectId)).toBe(250);
    expect((await recorded(projectId)).map((a) => a.targetIid)).toEqual(range(0, 249));
  });

  it('When a mapped event breaks its schema, then the handler declares it poison', async () => {
    const sub = activityLogSubscription(recorder());
    await expect(
      sub.handle(envelope({ type: D.issueOpened, projectId: 1, data: {} })),
    ).rejects.toBeInstanceOf(PoisonMessageError);
    await expect(
      sub.handle(envelope({ type: ID.projectCreated, data: { projectId: 'x' } })),
    ).rejects.toBeInstanceOf(PoisonMessageError);
  });

  it('When an event has no activity meaning, then it is accepted and nothing is recorded', async () => {
    const projectId = nextProject++;
    await recorder().apply(envelope({ type: DOMAIN_EVENT_TYPES.alerts.alertResolved, projectId, data: {} }));
    expect(await count(projectId)).toBe(0);
  });

  it('When a batch holds only events without activity, then it says it changed nothing; with one activity, it did', async () => {
    const projectId = nextProject++;
    const alert = () => envelope({ type: DOMAIN_EVENT_TYPES.alerts.alertCreated, projectId, data: {} });
    expect(await recorder().applyBatch([alert(), alert()])).toMatchObject({ unchanged: true });
    const opened = targetEvent(D.issueOpened, projectId, { targetId: 1, targetIid: 1, targetTitle: 'B' });
    expect(await recorder().applyBatch([alert(), opened])).toMatchObject({ unchanged: false });
    expect(await recorder().applyBatch([projectEvent(ID.projectCreated, nextProject++)])).toMatchObject({
      unchanged: false,
    });
  });

  it('When the creator becomes owner in the request that created the project, then only "created" is recorded', async () => {
    const projectId = nextProject++;
    await recorder().apply(projectEvent(ID.projectCreated, projectId, { correlationId: 'req-1' }));
    await recorder().apply(
      memberEvent(ID.memberAdded, 'project', projectId, ACTOR.id, {
        accessLevel: 50,
        correlationId: 'req-1',
      }),
    );
    await recorder().apply(memberEvent(ID.memberAdded, 'project', projectId, 77, { correlationId: 'req-2' }));
    const actions = await h.instance.models.activities.find({ projectId }).sort({ _id: 1 }).lean();
    expect(actions.map((a) => [a.actionName, a.authorId])).toEqual([
      ['created', ACTOR.id],
      ['joined', 77],
    ]);
  });

  it('When identity events arrive, then users, projects, groups and memberships are projected', async () => {
    const projectId = nextProject++;
    await recorder().apply(userCreated(301, 'Alice', 'Alice A'));
    await recorder().apply(
      projectEvent(ID.projectCreated, projectId, { visibility: 'internal', ancestorGroupIds: [40] }),
    );
    await recorder().apply(
      projectEvent(ID.projectUpdated, projectId, { visibility: 'public', ancestorGroupIds: [40] }),
    );
    await recorder().apply(memberEvent(ID.memberAdded, 'project', projectId, 301, { accessLevel: 20 }));
    await recorder().apply(memberEvent(ID.memberUpdated, 'project', projectId, 301, { accessLevel: 40 }));
    const { models } = h.instance;
    expect(await models.users.findById(301).lean()).toMatchObject({
      username: 'Alice',
      usernameLower: 'alice',
    });
    expect(await models.projects.findById(projectId).lean()).toMatchObject({
      visibility: 'public',
      ancestorGroupIds: [40],
      destroyed: false,
    });
    expect(await models.members.findById(`project:${projectId}:301`).lean()).toMatchObject({
      accessLevel: 40,
    });
    await recorder().apply(memberEvent(ID.memberRemoved, 'project', projectId, 301));
    expect(await models.members.findById(`project:${projectId}:301`).lean()).toBeNull();
    await recorder().apply(projectEvent(ID.projectDestroyed, projectId));
    // A late update never brings a destroyed project back.
    await recorder().apply(projectEvent(ID.projectUpdated, projectId, { visibility: 'public' }));
    expect(await models.projects.findById(projectId).lean()).toMatchObject({ destroyed: true });
  });

  it('When an invalid message and a valid event come through the bus, then the invalid one is terminated and the valid one recorded', async () => {
    const projectId = nextProject++;
    const durable = `events-activity-log-test-${projectId}`;
    const consumer = await startConsumer(
      h.runtime.bus,
      activityLogSubscription(recorder(), durable),
      h.runtime.logger,
      h.runtime.metrics,
    );
    try {
      await h.runtime.bus.publish(envelope({ type: D.issueOpened, projectId, data: { targetId: 'broken' } }));
      await h.runtime.bus.js.publish('gl.discussions.issue.opened', 'not json');
      const valid = targetEvent(D.issueOpened, projectId, {
        targetId: 2,
        targetIid: 2,
        targetTitle: 'Via bus',
      });
      await h.runtime.bus.publish(valid);
      expect(
        await h.eventually(
          () => count(projectId),
          (n) => n === 1,
        ),
      ).toBe(1);
      const metrics = await h.runtime.metrics.registry.getSingleMetricAsString(
        'domain_events_consumed_total',
      );
      expect(metrics).toContain(`durable="${durable}",outcome="terminated"`);
    } finally {
      await consumer.stop();
    }
  });

  it('When events are published while the service is down, then they appear after it starts', async () => {
    const projectId = nextProject++;
    const durable = `events-activity-log-down-${projectId}`;
    const subscription = activityLogSubscription(recorder(), durable);
    const first = await startConsumer(h.runtime.bus, subscription, h.runtime.logger);
    await first.stop();
    for (let iid = 1; iid <= 3; iid++) {
      await h.runtime.bus.publish(
        targetEvent(D.issueOpened, projectId, {
          targetId: iid,
          targetIid: iid,
          targetTitle: `Offline ${iid}`,
        }),
      );
    }
    expect(await count(projectId)).toBe(0);
    const second = await startConsumer(h.runtime.bus, subscription, h.runtime.logger);
    try {
      expect(
        await h.eventually(
          () => count(projectId),
          (n) => n === 3,
        ),
      ).toBe(3);
    } finally {
      await second.stop();
    }
  });
});
