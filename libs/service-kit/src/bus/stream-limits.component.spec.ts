import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiscardPolicy } from '@nats-io/jetstream';
import { millis } from '@nats-io/nats-core';
import { EVENT_STREAM, type EventEnvelope } from '@gl/contracts';
import {
  createTestDatabase,
  listen,
  startTestNats,
  waitFor,
  type TestDatabase,
  type TestNats,
  type TestServer,
} from '@gl/testing';
import { createLogger } from '../logging';
import { createMetrics, watchStorage, type ServiceMetrics } from '../metrics';
import { createServiceHttpApp } from '../http/service-app';
import { connectBus, type Bus } from './bus';
import { startBatchConsumer, startConsumer, type RunningConsumer } from './consumer';

const MAX_AGE_MS = 2_000;
const MiB = 1024 * 1024;
const SUBJECT = 'gl.limits.thing.happened';
const STUCK_SUBJECT = 'gl.limits.thing.stuck';

function event(type: string, n: number): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'limits-test',
    correlationId: null,
    actor: null,
    projectId: 1,
    groupId: null,
    data: { n },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const n = (e: EventEnvelope): number => (e.data as { n: number }).n;

/** The value of one series in the Prometheus text, or undefined when the series is not there. */
async function metricValue(
  metrics: ServiceMetrics,
  name: string,
  durable?: string,
): Promise<number | undefined> {
  const text = await metrics.registry.metrics();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && (durable === undefined || l.includes(`durable="${durable}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('bounded event stream', () => {
  let nats: TestNats;
  let database: TestDatabase;
  let bus: Bus;
  let metrics: ServiceMetrics;
  let logDir: string;
  const logLines: Record<string, unknown>[] = [];
  const logger = createLogger('limits-test', 'info', {
    write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const consumers: RunningConsumer[] = [];

  beforeAll(async () => {
    nats = await startTestNats();
    database = await createTestDatabase('stream_limits');
    logDir = mkdtempSync(join(tmpdir(), 'gl-limits-logs-'));
    writeFileSync(join(logDir, 'gateway.log'), 'x'.repeat(1234));
    metrics = createMetrics('limits-test', { logDir });
    bus = await connectBus(nats.url, 'limits-test', logger, {
      streamLimits: { maxAgeMs: MAX_AGE_MS, maxBytes: 8 * MiB },
    });
    // The size is read again on every scrape here (10 minutes apart in a service).
    watchStorage(metrics, database.connection, bus, 0);
  }, 60_000);
  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop();
    await bus?.close();
    await database?.drop();
    await nats?.destroy();
    rmSync(logDir, { recursive: true, force: true });
  });

  it('When the bus creates the stream, then it has the maximum age and size and discards the oldest', async () => {
    const { config } = await bus.jsm.streams.info(EVENT_STREAM);
    expect(millis(config.max_age)).toBe(MAX_AGE_MS);
    expect(config.max_bytes).toBe(8 * MiB);
    expect(config.discard).toBe(DiscardPolicy.Old);
    // JetStream refuses a duplicate window longer than the age.
    expect(millis(config.duplicate_window)).toBeLessThanOrEqual(MAX_AGE_MS);
  });

  it('When a service starts with other limits, then it applies them; a tool without limits changes nothing', async () => {
    const other = await connectBus(nats.url, 'limits-test-2', logger, {
      streamLimits: { maxAgeMs: 3_000, maxBytes: 4 * MiB },
    });
    const tool = await connectBus(nats.url, 'limits-tool', logger);
    try {
      const { config } = await bus.jsm.streams.info(EVENT_STREAM);
      expect([millis(config.max_age), config.max_bytes]).toEqual([3_000, 4 * MiB]);
      expect(logLines).toContainEqual(
        expect.objectContaining({ msg: 'applying the event stream limits', maxAgeMs: 3_000 }),
      );
    } finally {
      await tool.close();
      await other.close();
    }
    // Back to this suite's limits (what a restart of the first service would do).
    const again = await connectBus(nats.url, 'limits-test-3', logger, {
      streamLimits: { maxAgeMs: MAX_AGE_MS, maxBytes: 8 * MiB },
    });
    await again.close();
    expect(millis((await bus.jsm.streams.info(EVENT_STREAM)).config.max_age)).toBe(MAX_AGE_MS);
  });

  it('When messages are older than the maximum age, then they leave the stream', async () => {
    const before = (await bus.jsm.streams.info(EVENT_STREAM)).state.last_seq;
    for (let i = 0; i < 5; i++) await bus.publish(event(SUBJECT, i));
    const published = await bus.jsm.streams.info(EVENT_STREAM);
    expect(published.state.last_seq).toBe(before + 5);
    const emptied = await waitFor(
      async () => {
        const info = await bus.jsm.streams.info(EVENT_STREAM);
        return info.state.messages === 0 ? info : undefined;
      },
      'the old messages to leave',
      MAX_AGE_MS * 4,
    );
    expect(emptied.state.first_seq).toBe(before + 6);
  });

  it('When events keep coming for longer than the window, then every consumer still gets every event', async () => {
    const seen = { single: new Set<number>(), batch: new Set<number>() };
    const run = randomUUID().slice(0, 8);
    consumers.push(
      await startConsumer(
        bus,
        {
          durable: `limits-single-${run}`,
          filterSubjects: [SUBJECT],
          handle: async (e) => void seen.single.add(n(e)),
        },
        logger,
        metrics,
      ),
      await startBatchConsumer(
        bus,
        {
          durable: `limits-batch-${run}`,
          filterSubjects: [SUBJECT],
          handleBatch: async (events) => {
            for (const e of events) seen.batch.add(n(e));
          },
        },
        logger,
        metrics,
      ),
    );
    // 1.5 windows of events: the first ones are gone from the stream before the last are published.
    const total = 30;
    const firstSeq = (await bus.jsm.streams.info(EVENT_STREAM)).state.last_seq + 1;
    for (let i = 100; i < 100 + total; i++) {
      await bus.publish(event(SUBJECT, i));
      await sleep(MAX_AGE_MS / 20);
    }
    const expected = Array.from({ length: total }, (_, i) => 100 + i);
    await waitFor(
      async () => (seen.single.size === total && seen.batch.size === total ? true : undefined),
      'both consumers to get every event',
      10_000,
    );
    expect([...seen.single].sort((a, b) => a - b)).toEqual(expected);
    expect([...seen.batch].sort((a, b) => a - b)).toEqual(expected);
    // The stream moved on meanwhile: its oldest events of the run were already discarded.
    expect((await bus.jsm.streams.info(EVENT_STREAM)).state.first_seq).toBeGreaterThan(firstSeq);
    for (const durable of [`limits-single-${run}`, `limits-batch-${run}`]) {
      expect(await metricValue(metrics, 'consumer_behind_window', durable)).toBe(0);
    }
  });

  it('When a consumer falls behind the window, then /metrics and readiness name it before its events go', async () => {
    const durable = `limits-stuck-${randomUUID().slice(0, 8)}`;
    // A handler failing on every event: the consumer holds the message and the stream ages under it.
    consumers.push(
      await startConsumer(
        bus,
        {
          durable,
          filterSubjects: [STUCK_SUBJECT],
          handle: () => Promise.reject(new Error('database down')),
        },
        logger,
        metrics,
      ),
    );
    const app = createServiceHttpApp({
      name: 'limits-test',
      logger: createLogger('limits-test', 'silent'),
      metrics,
      contextSecret: 'test-secret-0123456789abcdef0123456789abcdef',
      readiness: async () => ({ nats: bus.isConnected() }),
      apiRouters: [],
    });
    const server: TestServer = await listen(app);
    try {
      const readiness = async (): Promise<Record<string, unknown>> =>
        (await fetch(`${server.url}/-/readiness`)).json() as Promise<Record<string, unknown>>;
      expect(await readiness()).not.toHaveProperty('consumers_behind_window');

      // Events keep coming while the handler fails: the oldest unacknowledged one ages until it is discarded,
      // and the next is almost as old.
      let publishing = true;
      const publisher = (async () => {
        for (let i = 0; publishing; i++) {
          await bus.publish(event(STUCK_SUBJECT, i));
          await sleep(MAX_AGE_MS / 10);
        }
      })();
      try {
        // Behind at 80% of the maximum age: 1.6 s here.
        const age = await waitFor(
          async () => {
            const behind = await metricValue(metrics, 'consumer_behind_window', durable);
            return behind === 1
              ? metricValue(metrics, 'consumer_oldest_unacked_age_seconds', durable)
              : undefined;
          },
          'the consumer to be reported behind',
          MAX_AGE_MS * 3,
        );
        expect(age).toBeGreaterThanOrEqual((0.8 * MAX_AGE_MS) / 1000);
        expect(age).toBeLessThan(MAX_AGE_MS / 1000 + 1);
        const body = await waitFor(
          async () => {
            const answer = await readiness();
            return answer.consumers_behind_window ? answer : undefined;
          },
          'readiness to name the consumer',
          MAX_AGE_MS,
        );
        expect(body).toMatchObject({ status: 'ok', consumers_behind_window: [durable] });
        const warned = logLines.filter((l) => l.durable === durable && l.level === 50);
        expect(warned.map((l) => l.msg)).toEqual([expect.stringMatching(/behind the event stream/)]);
      } finally {
        publishing = false;
        await publisher;
      }

      // Once the events are gone, nothing is left unacknowledged: the consumer is no longer behind.
      await waitFor(
        async () =>
          (await metricValue(metrics, 'consumer_behind_window', durable)) === 0 ? true : undefined,
        'the discarded events to leave the consumer',
        MAX_AGE_MS * 4,
      );
      expect(await metricValue(metrics, 'consumer_oldest_unacked_age_seconds', durable)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('When /metrics is scraped, then it carries the database size, the stream and the log folder', async () => {
    await bus.publish(event(SUBJECT, 999));
    await database.connection.collection('things').insertOne({ name: 'x'.repeat(1000) });
    const text = await waitFor(async () => {
      const scraped = await metrics.registry.metrics();
      // The database size is read in the background: a scrape after the first carries it.
      return /^stream_messages\{[^}]*\} [1-9]/m.test(scraped) &&
        /^database_size_bytes(\{[^}]*\})? [1-9]/m.test(scraped)
        ? scraped
        : undefined;
    }, 'the published event in stream_messages and the database size');
    const value = (name: string): number => {
      const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
      expect(line).toBeDefined();
      return Number(line!.slice(line!.lastIndexOf(' ') + 1));
    };
    expect(value('database_size_bytes')).toBeGreaterThan(0);
    expect(value('stream_messages')).toBeGreaterThanOrEqual(1);
    expect(value('stream_bytes')).toBeGreaterThan(0);
    expect(value('stream_max_age_seconds')).toBe(MAX_AGE_MS / 1000);
    expect(value('stream_max_bytes')).toBe(8 * MiB);
    expect(value('log_directory_bytes')).toBe(1234);
  });
});
