import type { Counter } from 'prom-client';
import { createTestRuntime, type TestRuntime } from '@gl/testing';
import type { HooksConfig } from '../app';
import { createHooksModels, type HookDoc, type HooksModels } from '../hooks.models';
import { fakeDiscussions } from '../payloads/fake-discussions.test-helpers';
import type { AckFloor } from './ack-floor';
import { insertHook } from './delivery.test-helpers';
import { createDelivery, type Delivery } from './index';
import { startReceiver, type Receiver } from '../testing/receiver';

const DAY = 86_400_000;

let runtime: TestRuntime<HooksConfig>;
let hookModels: HooksModels;
let delivery: Delivery;
let receiver: Receiver;
const ackFloor: AckFloor = { read: async () => Infinity, invalidate: () => undefined };
let nextId = 960_000 + Math.floor(Math.random() * 1000) * 100;

beforeAll(async () => {
  runtime = await createTestRuntime<HooksConfig>('hooks-bound', {
    HOOKS_QUEUE_MAX_DELIVERIES: 5,
    HOOKS_QUEUE_MAX_AGE_MS: 7 * DAY,
    HOOKS_QUEUE_CHECK_MS: 60_000,
  });
  hookModels = createHooksModels(runtime.connection);
  delivery = createDelivery({
    runtime,
    hooks: hookModels.hooks,
    allowLocalRequests: true,
    source: fakeDiscussions(),
    ackFloor,
  });
  await delivery.models.deliveries.createIndexes();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

/** The bodies' `n` the receiver got for a hook, in arrival order. */
const sentTo = (hook: HookDoc) =>
  receiver.received.filter((r) => r.path === `/hook/${hook._id}`).map((r) => r.body.n as number);

const addHook = (): Promise<HookDoc> => {
  const id = nextId++;
  return insertHook(hookModels, {
    _id: id,
    url: `${receiver.url}/hook/${id}`,
    parentKind: 'project',
    parentId: id,
  });
};

/** Queues deliveries `n` (payload `{n}`) at sequence `n`, each queued at `at(n)`, due at once. */
async function queue(hook: HookDoc, ns: number[], at: (n: number) => Date = () => new Date()) {
  for (const n of ns) {
    await delivery.store.queue(
      [
        {
          hook,
          eventId: `event-${hook._id}-${n}`,
          sequence: n,
          trigger: 'issue_hooks',
          eventName: 'Issue Hook',
          payload: JSON.stringify({ n }),
        },
      ],
      at(n),
      DAY,
    );
  }
  // Due now, whenever they were queued.
  await delivery.models.deliveries.updateMany({ hookId: hook._id }, { $set: { nextAttemptAt: new Date() } });
}

const statusesOf = async (hook: HookDoc) =>
  (await delivery.store.ofHook(hook._id)).map((d) => [d.sequence, d.status, d.reason]);

const setAside = async (reason: string): Promise<number> => {
  const counter = runtime.metrics.registry.getSingleMetric('hook_deliveries_set_aside_total') as
    Counter<'reason'> | undefined;
  const values = (await counter?.get())?.values ?? [];
  return values.find((v) => v.labels.reason === reason)?.value ?? 0;
};

describe('A hook’s bounded queue', () => {
  it('When a queue holds more than its cap, then a sweep sets the oldest aside with the reason, counted, and the rest is sent in order', async () => {
    const hook = await addHook();
    const small = await addHook();
    await queue(hook, [1, 2, 3, 4, 5, 6, 7, 8]);
    await queue(small, [1, 2, 3]);
    const before = await setAside('count');

    expect(await delivery.queueBound.sweep()).toBe(3);

    const reason = "set aside: the hook's queue held more than 5 deliveries";
    expect(await statusesOf(hook)).toEqual([
      [1, 'failed', reason],
      [2, 'failed', reason],
      [3, 'failed', reason],
      [4, 'queued', null],
      [5, 'queued', null],
      [6, 'queued', null],
      [7, 'queued', null],
      [8, 'queued', null],
    ]);
    expect((await statusesOf(small)).map(([, status]) => status)).toEqual(['queued', 'queued', 'queued']);
    expect(await setAside('count')).toBe(before + 3);
    // A second sweep finds it within its bounds.
    expect(await delivery.queueBound.sweep()).toBe(0);

    await delivery.sender.runOnce();
    expect(sentTo(hook)).toEqual([4, 5, 6, 7, 8]);
  });

  it('When the oldest deliveries of a queue are older than the age bound, then only those at its head are set aside', async () => {
    const hook = await addHook();
    const old = new Date(Date.now() - 8 * DAY);
    // 3 is old but behind a young one: the head stops at 2, so what stays keeps its order.
    await queue(hook, [1, 2, 3, 4], (n) => (n === 2 ? new Date() : old));
    const before = await setAside('age');

    expect(await delivery.queueBound.sweep()).toBe(1);

    expect(await statusesOf(hook)).toEqual([
      [1, 'failed', 'set aside: queued for more than 7 days'],
      [2, 'queued', null],
      [3, 'queued', null],
      [4, 'queued', null],
    ]);
    expect(await setAside('age')).toBe(before + 1);
  });

  it('When another sender holds a hook’s queue, then the sweep leaves it, and that sender sets it aside before sending', async () => {
    const hook = await addHook();
    await queue(hook, [1, 2, 3, 4, 5, 6, 7]);
    // Another replica drains the hook: its lease is live.
    await delivery.models.leases.create({
      _id: hook._id,
      owner: 'other',
      until: new Date(Date.now() + 60_000),
    });
    expect(await delivery.queueBound.sweep()).toBe(0);
    expect((await statusesOf(hook)).every(([, status]) => status === 'queued')).toBe(true);

    // Its lease lapses: this sender drains it, checking the bounds first under the lease.
    await delivery.models.leases.deleteOne({ _id: hook._id });
    await delivery.sender.runOnce();
    expect((await statusesOf(hook)).map(([, status]) => status)).toEqual([
      'failed',
      'failed',
      'delivered',
      'delivered',
      'delivered',
      'delivered',
      'delivered',
    ]);
    expect(sentTo(hook)).toEqual([3, 4, 5, 6, 7]);
  });
});
