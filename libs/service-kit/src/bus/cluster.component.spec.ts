import { EVENT_STREAM, type EventEnvelope } from '@gl/contracts';
import { startTestNatsCluster, type TestNatsCluster } from '@gl/testing';
import { createLogger } from '../logging';
import { connectBus, type Bus } from './bus';
import { createEvent } from './events';

/**
 * The bus on a three-node JetStream cluster of its own (what NATS_URL names with the `ha` profile): a
 * service that starts before the cluster has a quorum waits for it, and publishing goes on while the
 * stream's leader is lost and another is elected. Bounded: a few hundred publishes, waits capped.
 */
const logger = createLogger('cluster-test', 'silent');
const LIMITS = { maxAgeMs: 3_600_000, maxBytes: 64 * 1024 * 1024 };

describe('bus on a JetStream cluster', () => {
  let cluster: TestNatsCluster;
  const buses: Bus[] = [];

  beforeAll(async () => {
    cluster = await startTestNatsCluster(3);
  }, 60_000);
  afterAll(async () => {
    for (const bus of buses) await bus.close().catch(() => undefined);
    await cluster?.destroy();
  });

  const leaderNode = async (bus: Bus): Promise<number> => {
    const info = await bus.jsm.streams.info(EVENT_STREAM);
    return Number(/^nats-(\d+)$/.exec(info.cluster?.leader ?? '')?.[1]) - 1;
  };

  it('When a service connects before the cluster has a quorum, then it waits and makes the stream with its replicas', async () => {
    await cluster.kill(1);
    await cluster.kill(2);
    const connecting = connectBus(cluster.url, 'early', logger, { streamReplicas: 3, streamLimits: LIMITS });
    const outcome = connecting.then(
      () => 'connected',
      (err: unknown) => `failed: ${String(err)}`,
    );
    // Long enough for a start that does not wait to have failed.
    await new Promise((r) => setTimeout(r, 3_000));
    await Promise.all([cluster.restart(1), cluster.restart(2)]);
    expect(await outcome).toBe('connected');
    const bus = await connecting;
    buses.push(bus);
    const info = await bus.jsm.streams.info(EVENT_STREAM);
    expect(info.config.num_replicas).toBe(3);
  }, 60_000);

  it('When the stream leader is killed while events are published, then publishes wait for the next leader', async () => {
    const bus = buses[0]!;
    const before = (await bus.jsm.streams.info(EVENT_STREAM)).state.messages;
    const origin = { producer: 'cluster-test', correlationId: null };
    const sent: { event: EventEnvelope; result: Promise<void> }[] = [];
    const killed = await leaderNode(bus);
    for (let i = 0; i < 300; i++) {
      if (i === 100) void cluster.kill(killed);
      const event = createEvent(origin, {
        type: 'gl.clustertest.thing.created',
        actor: { id: 1, username: 'root', name: 'Root' },
        projectId: 1,
        data: { i },
      });
      sent.push({ event, result: bus.publish(event) });
      await new Promise((r) => setTimeout(r, 10));
    }
    const outcomes = await Promise.allSettled(sent.map((s) => s.result));
    const failed = sent.filter((_, i) => outcomes[i]!.status === 'rejected');
    // Only a publish in flight to the dying leader may go unanswered (a timeout: stored or not, nobody
    // can say); the outbox relay sends it again, as here. Every other one waited for the election.
    const reasons = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
    expect(reasons.filter((r) => !r.startsWith('TimeoutError'))).toEqual([]);
    expect(failed.length).toBeLessThan(10);
    for (const { event } of failed) await bus.publish(event);
    // Each exactly once: a timed-out one that had been stored is dropped as a duplicate of its msgID.
    expect((await bus.jsm.streams.info(EVENT_STREAM)).state.messages).toBe(before + 300);
    expect(await leaderNode(bus)).not.toBe(killed);
    await cluster.restart(killed);
  }, 60_000);
});
