import { DOMAIN_EVENT_TYPES, EVENT_STREAM, EVENT_TYPES, type EventEnvelope } from '@gl/contracts';
import { startConsumer, type RunningConsumer } from '@gl/service-kit';
import { createTestRuntime, eventually, projectEventFields, type TestRuntime } from '@gl/testing';
import type { HooksConfig } from '../app';
import { createHooksModels, type HookDoc, type HooksModels } from '../hooks.models';
import {
  fakeDiscussions,
  testIssue,
  testNote,
  type FakeDiscussions,
} from '../payloads/fake-discussions.test-helpers';
import { jetStreamAckFloor, type AckFloor } from './ack-floor';
import { discussionsEvent, insertHook } from './delivery.test-helpers';
import { PAYLOAD_ATTEMPTS } from './consumer';
import { createDelivery, type Delivery } from './index';
import { iidOf, startReceiver, type Receiver } from '../testing/receiver';

const T = DOMAIN_EVENT_TYPES.discussions;

let runtime: TestRuntime<HooksConfig>;
let hookModels: HooksModels;
let source: FakeDiscussions;
let delivery: Delivery;
let receiver: Receiver;
/** The ack floor the sender sees, set by each test (JetStream's own is read in the last test). */
const floor = { value: 0 };
const ackFloor: AckFloor = { read: async () => floor.value, invalidate: () => undefined };
let nextId = 950_000 + Math.floor(Math.random() * 1000) * 100;

beforeAll(async () => {
  runtime = await createTestRuntime<HooksConfig>('hooks-order', { GITLAB_EXTERNAL_URL: 'http://gl.test' });
  hookModels = createHooksModels(runtime.connection);
  source = fakeDiscussions();
  delivery = createDelivery({ runtime, hooks: hookModels.hooks, allowLocalRequests: true, source, ackFloor });
  await delivery.models.deliveries.createIndexes();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

beforeEach(() => {
  receiver.reset();
});

const addHook = (fields: Partial<HookDoc> & Pick<HookDoc, 'parentKind' | 'parentId'>): Promise<HookDoc> => {
  const id = nextId++;
  return insertHook(hookModels, { _id: id, url: `${receiver.url}/hook/${id}`, ...fields });
};

function issueOpened(projectId: number, iid: number): EventEnvelope {
  source.issues.set(`${projectId}:${iid}`, testIssue(projectId, iid));
  return discussionsEvent(T.issueOpened, projectId, {
    targetId: projectId * 1000 + iid,
    targetIid: iid,
    targetTitle: `Issue ${iid}`,
  });
}

/** A comment on issue `iid`, as discussions publishes one (the note and issue are there to read). */
function noteCreated(projectId: number, iid: number, noteId: number): EventEnvelope {
  source.issues.set(`${projectId}:${iid}`, testIssue(projectId, iid));
  source.notes.set(`${projectId}:${noteId}`, testNote(projectId, iid, noteId));
  return discussionsEvent(T.noteCreated, projectId, {
    noteId,
    noteType: null,
    discussionId: 'c'.repeat(40),
    body: 'A comment',
    system: false,
    createdAt: new Date().toISOString(),
    noteableType: 'Issue',
    noteableId: projectId * 1000 + iid,
    noteableIid: iid,
    commitId: null,
    targetTitle: `Issue ${iid}`,
  });
}

const projectCreated = (projectId: number, groupId: number): EventEnvelope => ({
  ...discussionsEvent(EVENT_TYPES.identity.projectCreated, projectId, {}),
  producer: 'gateway',
  data: projectEventFields(projectId, { ancestorGroupIds: [groupId] }),
});

const consume = (event: EventEnvelope, streamSequence: number) =>
  delivery.subscription.handle(event, { streamSequence, deliveryCount: 1 });

/** What the receiver got for a hook: its requests in arrival order. */
const arrivalsOf = (hook: HookDoc) => receiver.received.filter((r) => r.path === `/hook/${hook._id}`);
const iidsOf = (hook: HookDoc) => arrivalsOf(hook).map(iidOf);

/** Sender passes until nothing of the hook at or below the floor is queued. */
async function drain(hook: HookDoc): Promise<void> {
  await eventually(
    async () => {
      await delivery.sender.runOnce();
      const queued = (await delivery.store.ofHook(hook._id)).filter((d) => d.status === 'queued');
      return queued.filter((d) => d.sequence <= floor.value).length;
    },
    (count) => count === 0,
    20_000,
    10,
  );
}

describe('Hook delivery order', () => {
  it('When events are queued out of their bus order, then the hook gets them in stream order, none above the ack floor', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    // Two replicas' consumers: the later event's batch was written first.
    await consume(issueOpened(projectId, 2), 20);
    await consume(issueOpened(projectId, 1), 10);

    floor.value = 5;
    await delivery.sender.runOnce();
    expect(iidsOf(hook)).toEqual([]);
    floor.value = 10;
    await drain(hook);
    expect(iidsOf(hook)).toEqual([1]);
    floor.value = 20;
    await drain(hook);
    expect(iidsOf(hook)).toEqual([1, 2]);
    expect((await delivery.store.ofHook(hook._id)).map((d) => [d.sequence, d.status])).toEqual([
      [10, 'delivered'],
      [20, 'delivered'],
    ]);
  });

  it('When an event’s payload cannot be read, then it is retried until its last try and then logged as failed for its hooks, and the hook goes on', async () => {
    const projectId = nextId++;
    const hook = await addHook({ parentKind: 'project', parentId: projectId, events: { note_events: true } });
    const unreadable = noteCreated(projectId, 1, 61);
    const read = source.note;
    source.note = () => Promise.reject(new Error('discussions answered 500'));
    try {
      const meta = (deliveryCount: number) => [{ streamSequence: 30, deliveryCount }];
      await expect(delivery.subscription.handleBatch!([unreadable], meta(1))).rejects.toThrow('500');
      expect(await delivery.store.ofHook(hook._id)).toEqual([]);
      await delivery.subscription.handleBatch!([unreadable], meta(PAYLOAD_ATTEMPTS));
    } finally {
      source.note = read;
    }
    const [failed] = await delivery.store.ofHook(hook._id);
    expect(failed).toMatchObject({
      sequence: 30,
      status: 'failed',
      payload: 'null',
      reason: 'payload could not be built: discussions answered 500',
    });

    await consume(noteCreated(projectId, 1, 62), 31);
    floor.value = 31;
    await drain(hook);
    expect(arrivalsOf(hook)).toHaveLength(1);
    expect((await delivery.store.ofHook(hook._id)).map((d) => [d.sequence, d.status])).toEqual([
      [30, 'failed'],
      [31, 'delivered'],
    ]);
  });

  it('When a batch holds events of several projects, then copies and hooks are read once per batch, equal reads are shared, and each delivery has its event’s sequence', async () => {
    const groupId = nextId++;
    const [first, second] = [nextId++, nextId++];
    const subscription = delivery.subscription;
    await subscription.handleBatch!(
      [projectCreated(first, groupId), projectCreated(second, groupId)],
      [
        { streamSequence: 100, deliveryCount: 1 },
        { streamSequence: 101, deliveryCount: 1 },
      ],
    );
    const own = await addHook({ parentKind: 'project', parentId: first, events: { note_events: true } });
    const inherited = await addHook({
      parentKind: 'group',
      parentId: groupId,
      events: { note_events: true },
    });
    const events = [noteCreated(first, 3, 77), noteCreated(second, 4, 88), noteCreated(first, 3, 77)];
    const hookFinds = jest.spyOn(hookModels.hooks, 'find');
    const copyFinds = jest.spyOn(delivery.models.projects, 'find');
    const readsBefore = source.reads;
    try {
      await subscription.handleBatch!(
        events,
        [102, 103, 104].map((streamSequence) => ({ streamSequence, deliveryCount: 1 })),
      );
      expect(hookFinds).toHaveBeenCalledTimes(2);
      expect(copyFinds).toHaveBeenCalledTimes(1);
    } finally {
      hookFinds.mockRestore();
      copyFinds.mockRestore();
    }
    // The issue and the note of each comment, each read once for the batch.
    expect(source.reads - readsBefore).toBe(4);
    const queued = async (hook: HookDoc) =>
      (await delivery.store.ofHook(hook._id)).map((d) => [d.sequence, d.eventId]);
    expect(await queued(own)).toEqual([
      [102, events[0]!.id],
      [104, events[2]!.id],
    ]);
    expect(await queued(inherited)).toEqual(events.map((event, i) => [102 + i, event.id]));

    // The same batch again (a redelivery) queues nothing more.
    await subscription.handleBatch!(
      events,
      [102, 103, 104].map((streamSequence) => ({ streamSequence, deliveryCount: 1 })),
    );
    expect(await delivery.store.ofHook(inherited._id)).toHaveLength(3);
  });

  it('When a logged delivery is resent while a later one waits for the floor, then the copy goes after it', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    await consume(issueOpened(projectId, 1), 30);
    floor.value = 30;
    await drain(hook);
    await consume(issueOpened(projectId, 2), 40);
    const [original] = await delivery.store.ofHook(hook._id);
    const copy = await delivery.store.resend(hook._id, original!._id);
    expect(copy).toMatchObject({ sequence: 40, idempotencyKey: original!.idempotencyKey });
    await delivery.sender.runOnce();
    expect(iidsOf(hook)).toEqual([1]);
    floor.value = 40;
    await drain(hook);
    expect(iidsOf(hook)).toEqual([1, 2, 1]);
    expect(arrivalsOf(hook)[2]!.headers['idempotency-key']).toBe(original!.idempotencyKey);
  });

  it('When events come from the stream, then deliveries carry their stream sequences and the ack floor passes them', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    const durable = `hooks-order-test-${projectId}`;
    let consumer: RunningConsumer | undefined;
    try {
      consumer = await startConsumer(runtime.bus, { ...delivery.subscription, durable }, runtime.logger);
      const events = [1, 2, 3].map((iid) => issueOpened(projectId, iid));
      const acks: { seq: number }[] = [];
      for (const event of events)
        acks.push(await runtime.bus.js.publish(event.type, JSON.stringify(event), { msgID: event.id }));
      const queued = await eventually(
        () => delivery.store.ofHook(hook._id),
        (docs) => docs.length === 3,
        20_000,
        50,
      );
      expect(queued.map((d) => [d.eventId, d.sequence])).toEqual(
        events.map((event, i) => [event.id, acks[i]!.seq]),
      );
      const read = jetStreamAckFloor(runtime.bus, durable);
      const passed = await eventually(read, (value) => value >= acks[2]!.seq, 20_000, 50);
      expect(passed).toBeGreaterThanOrEqual(acks[2]!.seq);
    } finally {
      await consumer?.stop();
      await runtime.bus.jsm.consumers.delete(EVENT_STREAM, durable).catch(() => undefined);
    }
    expect(await jetStreamAckFloor(runtime.bus, durable)()).toBe(0);
  });
});
