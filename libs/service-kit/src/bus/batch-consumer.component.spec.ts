import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENT_TYPES, EVENT_STREAM, type EventEnvelope } from '@gl/contracts';
import { createTestRuntime, waitFor, type TestRuntime } from '@gl/testing';
import { PoisonMessageError, startBatchConsumer, type BatchHandler, type RunningConsumer } from './consumer';

const TYPE = DOMAIN_EVENT_TYPES.discussions.issueOpened;
let nextProject = 70_000;

function event(projectId: number, n: number, mark: 'ok' | 'bad' | 'reported' = 'ok'): EventEnvelope {
  return {
    id: randomUUID(),
    type: TYPE,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'batch-test',
    correlationId: null,
    actor: null,
    projectId,
    groupId: null,
    data: { n, mark },
  };
}

const mark = (e: EventEnvelope): unknown => (e.data as { mark?: string }).mark;

describe('batch consumer', () => {
  let runtime: TestRuntime;
  const consumers: RunningConsumer[] = [];

  beforeAll(async () => {
    runtime = await createTestRuntime('batch-consumer');
  });
  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop();
    await runtime.close();
  });

  /** A consumer of the test's events; handlers skip other tests' events (the stream holds them too). */
  async function consume(
    projectId: number,
    handle: BatchHandler,
    batchSize = 100,
    lingerMs = 0,
  ): Promise<string> {
    const durable = `batch-test-${projectId}`;
    consumers.push(
      await startBatchConsumer(
        runtime.bus,
        {
          durable,
          filterSubjects: [TYPE],
          batchSize,
          lingerMs,
          handleBatch: handle,
        },
        runtime.logger,
        runtime.metrics,
      ),
    );
    return durable;
  }

  const outcomes = async (durable: string): Promise<string> =>
    (await runtime.metrics.registry.getSingleMetricAsString('domain_events_consumed_total'))
      .split('\n')
      .filter((line) => line.includes(`durable="${durable}"`))
      .join('\n');

  const settled = (durable: string) =>
    waitFor(
      async () => {
        const info = await runtime.bus.jsm.consumers.info(EVENT_STREAM, durable);
        return info.num_pending === 0 && info.num_ack_pending === 0 ? info : undefined;
      },
      'the consumer to settle',
      15_000,
      50,
    );

  it('When a burst arrives, then the handler gets it in batches and every message is acknowledged', async () => {
    const projectId = nextProject++;
    const sizes: number[] = [];
    const seen = new Set<number>();
    const durable = await consume(projectId, async (events) => {
      sizes.push(events.length);
      for (const e of events) if (e.projectId === projectId) seen.add((e.data as { n: number }).n);
    });
    await Promise.all(Array.from({ length: 300 }, (_, n) => runtime.bus.publish(event(projectId, n))));
    await settled(durable);
    expect(seen.size).toBe(300);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    expect(sizes.some((size) => size > 1)).toBe(true);
    expect(await outcomes(durable)).not.toContain('outcome="nacked"');
  });

  it('When events are published, then the handler gets each one’s stream sequence beside it', async () => {
    const projectId = nextProject++;
    const sequenceOf = new Map<string, number>();
    const durable = await consume(projectId, async (events, meta) => {
      events.forEach((e, i) => {
        if (e.projectId === projectId) sequenceOf.set(e.id, meta[i]!.streamSequence);
      });
    });
    const published = [event(projectId, 1), event(projectId, 2), event(projectId, 3)];
    const acks: { seq: number }[] = [];
    for (const e of published)
      acks.push(await runtime.bus.js.publish(e.type, JSON.stringify(e), { msgID: e.id }));
    await settled(durable);
    expect(published.map((e) => sequenceOf.get(e.id))).toEqual(acks.map((ack) => ack.seq));
  });

  it('When events trickle in and the consumer lingers, then they share a batch', async () => {
    const projectId = nextProject++;
    const batches: number[][] = [];
    const durable = await consume(
      projectId,
      async (events) => {
        const own = events.filter((e) => e.projectId === projectId);
        if (own.length > 0) batches.push(own.map((e) => (e.data as { n: number }).n));
      },
      100,
      1_500,
    );
    // One at a time, each 100 ms after the last: without lingering, each would be a batch of its own.
    for (let n = 1; n <= 4; n++) {
      await runtime.bus.publish(event(projectId, n));
      await new Promise((r) => setTimeout(r, 100));
    }
    await settled(durable);
    expect(batches.flat().sort()).toEqual([1, 2, 3, 4]);
    expect(batches.length).toBeLessThan(4);
  });

  it('When one event is poison, then only it is terminated and the others are handled', async () => {
    const projectId = nextProject++;
    const handled: string[] = [];
    const mine = (e: EventEnvelope) => e.projectId === projectId;
    const durable = await consume(projectId, async (events) => {
      // The handler cannot tell which event is bad: the consumer retries the batch's events one at a time.
      if (events.some((e) => mine(e) && mark(e) === 'bad')) throw new PoisonMessageError('bad');
      const poisoned = new Map<number, PoisonMessageError>();
      events.forEach((e, i) => {
        if (mine(e) && mark(e) === 'reported') poisoned.set(i, new PoisonMessageError('reported'));
        else if (mine(e)) handled.push(e.id);
      });
      return { poisoned };
    });
    const published = [event(projectId, 1), event(projectId, 2, 'bad'), event(projectId, 3, 'reported')];
    published.push(event(projectId, 4));
    for (const e of published) await runtime.bus.publish(e);
    await settled(durable);
    expect(new Set(handled)).toEqual(new Set([published[0]!.id, published[3]!.id]));
    const counted = await outcomes(durable);
    // At least these two (other tests publish invalid messages on the same subject).
    const terminated = /outcome="terminated"[^}]*} (\d+)/.exec(counted);
    expect(Number(terminated?.[1])).toBeGreaterThanOrEqual(2);
    expect(counted).not.toContain('outcome="nacked"');
  });

  it('When the write fails, then the whole batch comes back after the back-off', async () => {
    const projectId = nextProject++;
    let attempts = 0;
    const handled = new Set<string>();
    const durable = await consume(projectId, async (events) => {
      const own = events.filter((e) => e.projectId === projectId);
      if (own.length === 0) return;
      attempts += 1;
      if (attempts === 1) throw new Error('database unavailable');
      for (const e of own) handled.add(e.id);
    });
    await Promise.all([1, 2, 3].map((n) => runtime.bus.publish(event(projectId, n))));
    await waitFor(async () => (handled.size === 3 ? true : undefined), 'the redelivery', 15_000, 50);
    expect(await outcomes(durable)).toContain('outcome="nacked"');
  });
});
